import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocument,
  filterValue,
  jsonApiQuerySchema,
  offsetOf,
  parseJsonApiQuery,
} from '../../plugins/jsonapi';
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { allowPageStyles, inlineStyleSources } from '../../plugins/page-styles';
import { contextSettings } from '../contexts/service';
import { notFound, ownUserIds, scopeOf } from '../scope';
import type { FastifyReply } from 'fastify';
import * as answers from './answers';
import { issuerRoutes } from './issuer-routes';
import { certificationItems } from './items';
import { renderCertificatePdf, tenantLogo } from './pdf';
import { findCertificate, snapshotOf } from './repository';
import { assertCertificationAllowed, certificateStatus, loadAchievement, verificationPath } from './service';
import { awardCertificate } from './award';
import { storedCredential } from './signed-credential';
import { docLocale } from './texts';
import type { DocLocale } from './texts';
import { crossOrigin, JWKS_PATH, wantsJson, wantsLinkedData } from './urls';
import { notFoundHtml, verificationHtml, verificationJson } from './verification';
import { collectionOf } from '../../plugins/contract';
import { certificationItemResource } from '../../plugins/resources';

export interface CertificateRoutesOptions {
  /** Signs nothing itself: the key that seals the tenants' private keys is derived from it. */
  secret: string;
  publicUrl?: string | undefined;
}

const listQuery = jsonApiQuerySchema({ filters: { userId: filterValue }, paginated: true });
const idParams = z.object({ id: z.string().min(1).max(200) });
const noQuery = z.strictObject({ noCache: z.string().optional() });
const verifyQuery = z.strictObject({ lang: z.enum(['fr', 'en']).optional() });
const CERTIFICATE_ID = /^[A-Za-z0-9_-]{22}$/;
const awardedSchema = z.strictObject({ id: z.string(), verificationUrl: z.string() });
function safeFileName(reference: string, ext: string): string {
  return `${reference.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'certificate'}.${ext}`;
}

/**
 * Certificates (docs/product.md §2 Certificates tab, §3 Certification item, §4 link rule): the learner's
 * items, the PDF document, the same achievement as a signed Open Badges 3.0 credential, the
 * tenant's public keys and issuer profile, and the public verification page (docs/api.md
 * "Certificates").
 */
export const certificateRoutes: FastifyPluginAsyncZod<CertificateRoutesOptions> = async (app, opts) => {
  await app.register(issuerRoutes, opts);
  app.get(
    '/certification-items',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary: "The signed-in learner's certification items (`filter[userId]` only `me` or one's own id).",
        querystring: listQuery,
        response: { 200: collectionOf(certificationItemResource) },
      },
    },
    async (request) => {
      assertCertificationAllowed(request);
      const scope = scopeOf(app.db, request);
      const q = parseJsonApiQuery(request.query);
      const requested = q.filters.userId?.map((u) => (u === 'me' ? scope.viewer.userId : u));
      // Personal documents: even administrators read only their own here.
      ownUserIds({ ...scope.viewer, isAdmin: false }, requested);
      const { data, total } = await certificationItems(
        app.db,
        scope.viewer,
        contextSettings(request.context).certification.type,
        {
          size: q.page.size,
          offset: offsetOf(q.page),
        },
      );
      return collectionDocument(data, [], total, q.page);
    },
  );

  app.post(
    '/lessons/:id/certificate',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary:
          "The learner's certificate of one of her ended certifying lessons is awarded: stored with its Open Badges credential, signed once (decision 0065); 201 the first time, 200 after. Its documents (GET) are read afterwards.",
        params: idParams,
        response: { 200: awardedSchema, 201: awardedSchema },
      },
    },
    async (request, reply) => {
      assertCertificationAllowed(request);
      const scope = scopeOf(app.db, request);
      const { achievement, created } = await awardCertificate(
        app,
        request,
        { ...scope.viewer, isAdmin: false },
        request.params.id,
        opts,
      );
      reply.header('cache-control', 'no-store').code(created ? 201 : 200);
      return { id: achievement.certificate.id, verificationUrl: achievement.verificationUrl };
    },
  );

  app.get(
    '/lessons/:id/certificate.pdf',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary: "The certificate PDF of one of the learner's awarded certificates (409 before the award).",
        params: idParams,
        querystring: noQuery,
        produces: ['application/pdf'],
        response: { 200: answers.pdf },
      },
    },
    async (request, reply) => {
      assertCertificationAllowed(request);
      const scope = scopeOf(app.db, request);
      const a = await loadAchievement(
        app,
        request,
        { ...scope.viewer, isAdmin: false },
        request.params.id,
        opts.publicUrl,
      );
      const pdf = await renderCertificatePdf({
        snapshot: a.snapshot,
        locale: a.locale,
        verificationUrl: a.verificationUrl,
        logo: await tenantLogo(app.db, app.files, request.context.id, request.context.assets),
      });
      reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${safeFileName(a.snapshot.reference, 'pdf')}"`)
        .header('cache-control', 'private, no-store');
      return reply.send(Buffer.from(pdf));
    },
  );

  app.get(
    '/lessons/:id/credential',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary:
          'The same achievement as an Open Badges 3.0 credential, as signed at its award (409 before it): the VC-JWT (text/plain, `.jwt`) by default; with `Accept: application/vc+ld+json` the credential with its embedded Data Integrity proof (`.json`); with `Accept: application/json` both.',
        params: idParams,
        querystring: noQuery,
        produces: ['text/plain', 'application/vc+ld+json', 'application/json'],
        response: { 200: answers.credentialForms },
      },
    },
    async (request, reply) => {
      assertCertificationAllowed(request);
      const scope = scopeOf(app.db, request);
      const a = await loadAchievement(
        app,
        request,
        { ...scope.viewer, isAdmin: false },
        request.params.id,
        opts.publicUrl,
      );
      const signed = storedCredential(a);
      reply.header('cache-control', 'private, no-store').header('vary', 'Accept');
      const accept = request.headers.accept;
      // Exactly what was signed, sent as bytes: the JSON hook that signs file URLs for the
      // viewer (files/signing.ts) must not rewrite the issuer's image inside it.
      if (wantsLinkedData(accept)) {
        // OB 3.0 §5.3 "Web Resource" / "File Format" for an embedded proof: the JSON, `.json`.
        return reply
          .type('application/vc+ld+json')
          .header(
            'content-disposition',
            `attachment; filename="${safeFileName(a.snapshot.reference, 'json')}"`,
          )
          .send(Buffer.from(JSON.stringify(signed.ld)));
      }
      if (wantsJson(accept)) {
        const body = {
          credential: signed.ld,
          jwt: signed.jwt,
          jwks: `${a.origin}${JWKS_PATH}`,
          verificationUrl: a.verificationUrl,
        };
        return reply.type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(body)));
      }
      // OB 3.0 §5.3 for VC-JWT: the compact JWS, `Content-Type` text/plain, `.jwt`.
      return reply
        .type('text/plain')
        .header('content-disposition', `attachment; filename="${safeFileName(a.snapshot.reference, 'jwt')}"`)
        .send(Buffer.from(signed.jwt));
    },
  );

  app.post(
    '/certificates/:id/revoke',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary:
          "A tenant administrator revokes a certificate: its verification page and its credential's status list bit say so (issue 28).",
        params: idParams,
        response: { 204: answers.revoked },
      },
    },
    async (request, reply) => {
      if (!currentUser(request).isAdmin)
        throw new ApiError(403, 'Forbidden', 'Only a tenant administrator revokes certificates.');
      const id = request.params.id;
      const res = CERTIFICATE_ID.test(id)
        ? await app.db
            .updateTable('certificates')
            .set({ revokedAt: new Date().toISOString() })
            .where('contextId', '=', request.context.id)
            .where('id', '=', id)
            .where('revokedAt', 'is', null)
            .executeTakeFirst()
        : null;
      if (!res || Number(res.numUpdatedRows) !== 1) throw notFound('Certificate');
      return reply.code(204).send();
    },
  );

  app.get(
    '/certificates/:id/verify',
    {
      schema: {
        tags: ['certificates'],
        summary:
          'Public verification of a certificate: what the document shows and whether it is valid (HTML; JSON with `Accept: application/json`).',
        params: idParams,
        querystring: verifyQuery,
        produces: ['text/html', 'application/json'],
        response: { 200: answers.verification, 404: answers.verificationNotFound },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const row = CERTIFICATE_ID.test(id) ? await findCertificate(app.db, request.context.id, id) : undefined;
      const json = wantsJson(request.headers.accept);
      const fromHeader = (request.headers['accept-language'] ?? '').split(',')[0];
      const locale: DocLocale =
        request.query.lang ?? docLocale(fromHeader, contextSettings(request.context).defaultLocale);
      const other = `${verificationPath(id)}?lang=${locale === 'fr' ? 'en' : 'fr'}`;
      crossOrigin(reply)
        .header('cache-control', 'no-cache')
        .header('vary', 'Host, Accept, Accept-Language')
        .header('x-robots-tag', 'noindex');
      if (!row) {
        if (json) throw notFound('Certificate');
        return htmlPage(reply.code(404), notFoundHtml(locale, other));
      }
      const snapshot = snapshotOf(row);
      const v = { status: certificateStatus(row, snapshot.reference), snapshot };
      if (json)
        return reply.type('application/json; charset=utf-8').send(verificationJson(v, verificationPath(id)));
      return htmlPage(reply, verificationHtml(v, locale, other));
    },
  );
};

/** The verification page, whose `<style>` the CSP allows by its hash (decision 0053). */
function htmlPage(reply: FastifyReply, html: string): FastifyReply {
  allowPageStyles(reply, inlineStyleSources(html));
  return reply.type('text/html; charset=utf-8').send(html);
}

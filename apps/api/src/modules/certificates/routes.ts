import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  collectionDocument,
  collectionDocumentSchema,
  filterValue,
  jsonApiQuerySchema,
  offsetOf,
  parseJsonApiQuery,
} from '../../plugins/jsonapi';
import { contextSettings } from '../contexts/service';
import { notFound, ownUserIds, scopeOf } from '../scope';
import { publicOrigin } from '../users/origin';
import { buildCredential, issuerProfile, OB_CONTEXT, signCredential, VC_CONTEXT_V2 } from './credential';
import { certificationItems } from './items';
import { activeSigningKey, tenantJwks } from './keys';
import { renderCertificatePdf, tenantLogo } from './pdf';
import { findCertificate, snapshotOf } from './repository';
import {
  assertCertificationAllowed,
  certificateStatus,
  loadAchievement,
  logoUrl,
  verificationPath,
} from './service';
import { docLocale } from './texts';
import type { DocLocale } from './texts';
import { notFoundHtml, verificationHtml, verificationJson } from './verification';

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
const JWKS_PATH = '/api/contexts/current/jwks.json';
const ISSUER_PATH = '/api/contexts/current/issuer';

function safeFileName(reference: string, ext: string): string {
  return `${reference.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'certificate'}.${ext}`;
}

function wantsJson(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  return a.includes('application/json') && !a.includes('text/html');
}

/**
 * Certificates (docs/product.md §2 Certificates tab, §3 Certification item, §4 link rule): the learner's
 * items, the PDF document, the same achievement as a signed Open Badges 3.0 credential, the
 * tenant's public keys and issuer profile, and the public verification page (docs/api.md
 * "Certificates").
 */
export const certificateRoutes: FastifyPluginAsyncZod<CertificateRoutesOptions> = async (app, opts) => {
  app.get(
    '/certification-items',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary: "The signed-in learner's certification items (`filter[userId]` only `me` or one's own id).",
        querystring: listQuery,
        response: { 200: collectionDocumentSchema },
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

  app.get(
    '/lessons/:id/certificate.pdf',
    {
      onRequest: app.auth.requireUser,
      schema: {
        tags: ['certificates'],
        summary: "The certificate PDF of one of the learner's ended certifying lessons.",
        params: idParams,
        querystring: noQuery,
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
        logo: await tenantLogo(app.db, app.filesDir, request.context.id, request.context.assets),
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
          'The same achievement as an Open Badges 3.0 credential, signed as a VC-JWT (application/vc+jwt; JSON with `Accept: application/json`).',
        params: idParams,
        querystring: noQuery,
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
      const urls = {
        issuerId: `${a.origin}${ISSUER_PATH}`,
        origin: a.origin,
        jwksUrl: `${a.origin}${JWKS_PATH}`,
        verificationUrl: a.verificationUrl,
        achievementId: `${a.origin}/api/courses/${encodeURIComponent(a.courseId)}`,
        logoUrl: logoUrl(a.origin, request.context.assets),
      };
      const credential = buildCredential(a.snapshot, a.locale, urls, { email: a.learnerEmail });
      const key = await activeSigningKey(app.db, request.context.id, opts.secret);
      const jwt = await signCredential(credential, key, `${urls.jwksUrl}#${key.kid}`);
      reply.header('cache-control', 'private, no-store');
      if (wantsJson(request.headers.accept)) {
        return reply
          .type('application/json; charset=utf-8')
          .send({ credential, jwt, jwks: urls.jwksUrl, verificationUrl: a.verificationUrl });
      }
      return reply
        .type('application/vc+jwt')
        .header('content-disposition', `attachment; filename="${safeFileName(a.snapshot.reference, 'jwt')}"`)
        .send(jwt);
    },
  );

  app.get(
    '/contexts/current/jwks.json',
    {
      schema: {
        tags: ['certificates'],
        summary: "The tenant's public credential keys (JWK Set, public).",
        querystring: noQuery,
      },
    },
    async (request, reply) => {
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      const jwks = await tenantJwks(app.db, request.context.id);
      // Key ids are URLs of this set: a verifier dereferences a credential's `kid` here.
      const keys = jwks.keys.map((k) => ({ ...k, kid: `${origin}${JWKS_PATH}#${String(k.kid)}` }));
      reply.header('cache-control', 'public, max-age=300').header('vary', 'Host');
      return reply.type('application/jwk-set+json').send({ keys });
    },
  );

  app.get(
    '/contexts/current/issuer',
    {
      schema: {
        tags: ['certificates'],
        summary: "The tenant's Open Badges issuer Profile (public).",
        querystring: noQuery,
      },
    },
    async (request, reply) => {
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      const profile = issuerProfile(request.context.name, {
        issuerId: `${origin}${ISSUER_PATH}`,
        origin,
        logoUrl: logoUrl(origin, request.context.assets),
      });
      reply.header('cache-control', 'public, max-age=300').header('vary', 'Host');
      return reply
        .type('application/ld+json')
        .send({ '@context': [VC_CONTEXT_V2, OB_CONTEXT], ...profile, jwks: `${origin}${JWKS_PATH}` });
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
      reply
        .header('cache-control', 'no-cache')
        .header('vary', 'Host, Accept, Accept-Language')
        .header('x-robots-tag', 'noindex');
      if (!row) {
        if (json) throw notFound('Certificate');
        return reply.code(404).type('text/html; charset=utf-8').send(notFoundHtml(locale, other));
      }
      const snapshot = snapshotOf(row);
      const v = { status: certificateStatus(row, snapshot.reference), snapshot };
      if (json)
        return reply.type('application/json; charset=utf-8').send(verificationJson(v, verificationPath(id)));
      return reply.type('text/html; charset=utf-8').send(verificationHtml(v, locale, other));
    },
  );
};

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
import { currentUser } from '../../plugins/auth';
import { ApiError } from '../../plugins/errors';
import { allowPageStyles, inlineStyleSources } from '../../plugins/page-styles';
import { contextSettings } from '../contexts/service';
import { notFound, ownUserIds, scopeOf } from '../scope';
import { publicOrigin } from '../users/origin';
import { decodeJwt } from 'jose';
import type { FastifyReply } from 'fastify';
import {
  buildCredential,
  issuerProfile,
  OB_CONTEXT,
  signCredential,
  subjectIdOf,
  VC_CONTEXT_V2,
} from './credential';
import { certificationItems } from './items';
import { activeSigningKey, SIGNING_ALG, tenantJwks, tenantPublicKey } from './keys';
import { renderCertificatePdf, tenantLogo } from './pdf';
import { findCertificate, snapshotOf } from './repository';
import {
  assertCertificationAllowed,
  certificateStatus,
  loadAchievement,
  logoUrl,
  verificationPath,
} from './service';
import { signedStatusList, statusIndexOf } from './status-list';
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
const KEYS_PATH = '/api/contexts/current/keys';
const STATUS_PATH = '/api/contexts/current/status/revocation';

/**
 * A key's `kid`: for ES256 keys the URL that answers that one JWK (OB 3.0 §8.2.2 "dereferenced
 * to an object of type JWK"); keys made before (EdDSA) keep the id their credentials were
 * signed with, a fragment of the key set.
 */
const kidUrl = (origin: string, kid: string, alg: string) =>
  alg === SIGNING_ALG ? `${origin}${KEYS_PATH}/${kid}` : `${origin}${JWKS_PATH}#${kid}`;

/** What a verifier reads from another origin (issue 28): keys, issuer, status list, verification. */
const crossOrigin = (reply: FastifyReply) => reply.header('access-control-allow-origin', '*');

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
      const jwt = await credentialJwtOf(a, scope.viewer.userId, request.context);
      reply.header('cache-control', 'private, no-store');
      if (wantsJson(request.headers.accept)) {
        // Exactly what was signed. Sent as bytes: the JSON hook that signs file URLs for the
        // viewer (files/signing.ts) must not rewrite the issuer's image inside it.
        const body = {
          credential: decodeJwt(jwt),
          jwt,
          jwks: `${a.origin}${JWKS_PATH}`,
          verificationUrl: a.verificationUrl,
        };
        return reply.type('application/json; charset=utf-8').send(Buffer.from(JSON.stringify(body)));
      }
      return reply
        .type('application/vc+jwt')
        .header('content-disposition', `attachment; filename="${safeFileName(a.snapshot.reference, 'jwt')}"`)
        .send(jwt);
    },
  );

  /**
   * One signed credential per achievement (issue 28): signed on the first download with a
   * status list entry, stored, then re-served as is — never re-signed under the same `jti`.
   */
  async function credentialJwtOf(
    a: Awaited<ReturnType<typeof loadAchievement>>,
    userId: string,
    context: { id: string; assets: string },
  ): Promise<string> {
    if (a.certificate.credentialJwt) return a.certificate.credentialJwt;
    const urls = {
      issuerId: `${a.origin}${ISSUER_PATH}`,
      origin: a.origin,
      jwksUrl: `${a.origin}${JWKS_PATH}`,
      verificationUrl: a.verificationUrl,
      achievementId: `${a.origin}/api/courses/${encodeURIComponent(a.courseId)}`,
      logoUrl: logoUrl(a.origin, context.assets),
    };
    const index = await statusIndexOf(app.db, context.id, a.certificate.id);
    const credential = buildCredential(
      a.snapshot,
      a.locale,
      urls,
      { email: a.learnerEmail, subjectId: subjectIdOf(context.id, userId) },
      { listUrl: `${a.origin}${STATUS_PATH}`, index },
    );
    const key = await activeSigningKey(app.db, context.id, opts.secret);
    const signed = await signCredential(credential, key, kidUrl(a.origin, key.kid, key.alg));
    // Two first downloads at once: the first stored wins, both serve it.
    await app.db
      .updateTable('certificates')
      .set({ credentialJwt: signed })
      .where('id', '=', a.certificate.id)
      .where('credentialJwt', 'is', null)
      .execute();
    const row = await app.db
      .selectFrom('certificates')
      .select('credentialJwt')
      .where('id', '=', a.certificate.id)
      .executeTakeFirstOrThrow();
    return row.credentialJwt ?? signed;
  }

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
      // Key ids as the credentials name them (kidUrl): each one dereferences to its key.
      const keys = jwks.keys.map((k) => ({ ...k, kid: kidUrl(origin, String(k.kid), String(k.alg)) }));
      crossOrigin(reply).header('cache-control', 'public, max-age=300').header('vary', 'Host');
      return reply.type('application/jwk-set+json').send({ keys });
    },
  );

  app.get(
    '/contexts/current/keys/:kid',
    {
      schema: {
        tags: ['certificates'],
        summary:
          "One of the tenant's public credential keys, as the JWK a credential's `kid` names (public).",
        params: z.strictObject({ kid: z.string().min(1).max(100) }),
        querystring: noQuery,
      },
    },
    async (request, reply) => {
      const key = await tenantPublicKey(app.db, request.context.id, request.params.kid);
      if (!key) throw notFound('Key');
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      crossOrigin(reply).header('cache-control', 'public, max-age=3600').header('vary', 'Host');
      return reply
        .type('application/jwk+json')
        .send({ ...key, kid: kidUrl(origin, String(key.kid), String(key.alg)) });
    },
  );

  app.get(
    '/contexts/current/status/revocation',
    {
      schema: {
        tags: ['certificates'],
        summary:
          "The tenant's revocation list (W3C Bitstring Status List credential, signed as a JWT; public).",
        querystring: noQuery,
      },
    },
    async (request, reply) => {
      const origin = await publicOrigin(app.db, request, request.context, opts.publicUrl);
      const key = await activeSigningKey(app.db, request.context.id, opts.secret);
      const jwt = await signedStatusList(
        app.db,
        request.context.id,
        { listUrl: `${origin}${STATUS_PATH}`, issuerId: `${origin}${ISSUER_PATH}` },
        key,
        kidUrl(origin, key.kid, key.alg),
        new Date(),
      );
      // A reset or a revocation shows at once: verifiers revalidate every time.
      crossOrigin(reply).header('cache-control', 'no-cache').header('vary', 'Host');
      return reply.type('application/vc+jwt').send(jwt);
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
      crossOrigin(reply).header('cache-control', 'public, max-age=300').header('vary', 'Host');
      return reply
        .type('application/ld+json')
        .send({ '@context': [VC_CONTEXT_V2, OB_CONTEXT], ...profile, jwks: `${origin}${JWKS_PATH}` });
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

import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contextSettings } from '../contexts/service';
import { notFound } from '../scope';
import { publicOrigin } from '../users/origin';
import * as answers from './answers';
import { badgeSvg } from './badge';
import { issuerProfile, OB_CONTEXT, VC_CONTEXT_V2 } from './credential';
import {
  assertionMethods,
  DID_CONTEXT_V1,
  dataIntegrityKey,
  multikeyDocument,
  signDataIntegrity,
} from './data-integrity';
import { activeSigningKey, dataIntegrityPublicKeys, tenantJwks, tenantPublicKey } from './keys';
import { findCertificate, snapshotOf } from './repository';
import { logoUrl } from './service';
import { signStatusListJwt, statusListCredential } from './status-list';
import { docLocale } from './texts';
import {
  crossOrigin,
  ISSUER_PATH,
  issuerKeyUrls,
  kidUrl,
  STATUS_PATH,
  wantsJson,
  wantsLinkedData,
} from './urls';

export interface IssuerRoutesOptions {
  secret: string;
  publicUrl?: string | undefined;
}

const noQuery = z.strictObject({ noCache: z.string().optional() });
const CERTIFICATE_ID = /^[A-Za-z0-9_-]{22}$/;

/** A public issuer document's route options: anyone reads it, with no query. */
const publicDocument = <A extends z.ZodType>(summary: string, produces: string[], answer: A) => ({
  schema: { tags: ['certificates'], summary, querystring: noQuery, produces, response: { 200: answer } },
});

/**
 * What the tenant publishes as an issuer, for anyone (docs/api.md "Certificates"): its JWT
 * keys, its revocation list, its Open Badges Profile and the credentials' badge images. All
 * public and cross-origin: web verifiers read them from their own origin.
 */
export const issuerRoutes: FastifyPluginAsyncZod<IssuerRoutesOptions> = async (app, opts) => {
  const originOf = (request: FastifyRequest) =>
    publicOrigin(app.db, request, request.context, opts.publicUrl);
  app.get(
    '/contexts/current/jwks.json',
    publicDocument(
      "The tenant's public credential keys (JWK Set, public).",
      ['application/jwk-set+json'],
      answers.jwkSet,
    ),
    async (request, reply) => {
      const origin = await originOf(request);
      const jwks = await tenantJwks(app.db, request.context.id);
      // Key ids as the credentials name them (kidUrl): each one dereferences to its key.
      // exportJWK always sets kty (jose types it optional).
      const keys = jwks.keys.map((k) => ({
        ...k,
        kty: k.kty as string,
        kid: kidUrl(origin, String(k.kid), String(k.alg)),
      }));
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
          "One of the tenant's public credential keys (public): the JWK a JWT's `kid` names, or the Multikey an embedded proof's `verificationMethod` names.",
        params: z.strictObject({ kid: z.string().min(1).max(100) }),
        querystring: noQuery,
        produces: ['application/jwk+json', 'application/ld+json'],
        response: { 200: answers.publicKey },
      },
    },
    async (request, reply) => {
      const origin = await originOf(request);
      crossOrigin(reply).header('cache-control', 'public, max-age=3600').header('vary', 'Host');
      const key = await tenantPublicKey(app.db, request.context.id, request.params.kid);
      if (!key) {
        const [di] = await dataIntegrityPublicKeys(app.db, request.context.id, request.params.kid);
        if (!di) throw notFound('Key');
        const doc = await multikeyDocument(di.kid, di.jwk, issuerKeyUrls(origin));
        return reply.type('application/ld+json').send(doc);
      }
      return reply
        .type('application/jwk+json')
        .send({ ...key, kty: key.kty as string, kid: kidUrl(origin, String(key.kid), String(key.alg)) });
    },
  );

  app.get(
    '/contexts/current/status/revocation',
    publicDocument(
      "The tenant's revocation list (W3C Bitstring Status List credential, public): signed as a JWT, or with an embedded Data Integrity proof when JSON(-LD) is asked for.",
      ['application/vc+jwt', 'application/vc+ld+json'],
      answers.revocationList,
    ),
    async (request, reply) => {
      const origin = await originOf(request);
      const urls = { listUrl: `${origin}${STATUS_PATH}`, issuerId: `${origin}${ISSUER_PATH}` };
      const list = await statusListCredential(app.db, request.context.id, urls, new Date());
      // A reset or a revocation shows at once: verifiers revalidate every time.
      crossOrigin(reply).header('cache-control', 'no-cache').header('vary', 'Host, Accept');
      const accept = request.headers.accept;
      if (wantsLinkedData(accept) || wantsJson(accept)) {
        // What Data Integrity verifiers fetch (DCC's ask for `application/ld+json, application/json`).
        const key = await dataIntegrityKey(app.db, request.context.id, opts.secret, issuerKeyUrls(origin));
        const signed = await signDataIntegrity(list, key);
        return reply.type('application/vc+ld+json').send(Buffer.from(JSON.stringify(signed)));
      }
      const key = await activeSigningKey(app.db, request.context.id, opts.secret);
      return reply
        .type('application/vc+jwt')
        .send(await signStatusListJwt(list, key, kidUrl(origin, key.kid, key.alg)));
    },
  );

  app.get(
    '/contexts/current/issuer',
    publicDocument(
      "The tenant's Open Badges issuer Profile (public).",
      ['application/ld+json'],
      answers.issuer,
    ),
    async (request, reply) => {
      const origin = await originOf(request);
      const profile = issuerProfile(request.context.name, {
        issuerId: `${origin}${ISSUER_PATH}`,
        origin,
        logoUrl: logoUrl(origin, request.context.assets),
      });
      // The keys its embedded proofs name (it is their controller document); the DID context
      // defines `assertionMethod`. Only defined terms (JSON-LD safe mode): the JWTs' key set is
      // found from their `kid`, not from here (decision 0058).
      const methods = await assertionMethods(app.db, request.context.id, issuerKeyUrls(origin));
      crossOrigin(reply).header('cache-control', 'no-cache').header('vary', 'Host');
      return reply.type('application/ld+json').send({
        '@context': [VC_CONTEXT_V2, OB_CONTEXT, DID_CONTEXT_V1],
        ...profile,
        ...(methods.length > 0 ? { assertionMethod: methods } : {}),
      });
    },
  );

  app.get(
    '/certificates/:id/image.svg',
    {
      schema: {
        tags: ['certificates'],
        summary: "The badge image of a certificate's Achievement (SVG, public).",
        params: z.object({ id: z.string().min(1).max(200) }),
        querystring: z.strictObject({ lang: z.enum(['fr', 'en']).optional() }),
        produces: ['image/svg+xml'],
        response: { 200: answers.badgeImage },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const row = CERTIFICATE_ID.test(id) ? await findCertificate(app.db, request.context.id, id) : undefined;
      if (!row) throw notFound('Certificate');
      // The credential names its image in the learner's language; else the tenant's.
      const locale = request.query.lang ?? docLocale(null, contextSettings(request.context).defaultLocale);
      // The snapshot never changes: the image is the same for the certificate's whole life.
      crossOrigin(reply)
        .header('cache-control', 'public, max-age=86400')
        .header('vary', 'Host')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
      return reply.type('image/svg+xml').send(badgeSvg(snapshotOf(row), locale));
    },
  );
};

import type { FastifyReply } from 'fastify';
import { SIGNING_ALG } from './keys';

/** Where the tenant's issuer documents live (decisions 0012, 0041, 0058). */
export const JWKS_PATH = '/api/contexts/current/jwks.json';
export const ISSUER_PATH = '/api/contexts/current/issuer';
export const KEYS_PATH = '/api/contexts/current/keys';
export const STATUS_PATH = '/api/contexts/current/status/revocation';

export const badgePath = (certificateId: string, lang: string) =>
  `/api/certificates/${encodeURIComponent(certificateId)}/image.svg?lang=${lang}`;

/**
 * A key's `kid`: for ES256 keys the URL that answers that one JWK (OB 3.0 §8.2.2 "dereferenced
 * to an object of type JWK"); keys made before (EdDSA) keep the id their credentials were
 * signed with, a fragment of the key set.
 */
export const kidUrl = (origin: string, kid: string, alg: string) =>
  alg === SIGNING_ALG ? `${origin}${KEYS_PATH}/${kid}` : `${origin}${JWKS_PATH}#${kid}`;

/** The Profile URL (a Data Integrity key's controller) and each key's URL, on this origin. */
export const issuerKeyUrls = (origin: string) => ({
  issuerId: `${origin}${ISSUER_PATH}`,
  keyUrl: (kid: string) => `${origin}${KEYS_PATH}/${kid}`,
});

/** What a verifier reads from another origin (issue 28): keys, issuer, status list, verification. */
export const crossOrigin = (reply: FastifyReply) => reply.header('access-control-allow-origin', '*');

/** The embedded-proof form is asked for (OB 3.0 "Web Resource": `application/vc+ld+json`). */
export function wantsLinkedData(accept: string | undefined): boolean {
  return /application\/(vc\+)?ld\+json/i.test(accept ?? '');
}

export function wantsJson(accept: string | undefined): boolean {
  const a = (accept ?? '').toLowerCase();
  return a.includes('application/json') && !a.includes('text/html');
}

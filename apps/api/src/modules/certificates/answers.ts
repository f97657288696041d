import { z } from 'zod';
import { CERTIFICATION_WORDING_VALUES } from '@parcours/domain/contract/dashboard';
import { bytes, jsonAnswer, noBody } from '../../plugins/answers';

/**
 * What the certificate routes answer besides JSON:API (docs/api.md "Certificates"), for /api/docs
 * and the contract check of the API tests. The W3C and Open Badges documents name their members
 * the standards define; a member a standard adds later passes (loose objects), the ones the
 * verifiers read are typed.
 */

const jwk = z
  .looseObject({
    kty: z.string(),
    kid: z.string().describe('The URL of this key (GET contexts/current/keys/{kid}).'),
    alg: z.string().optional(),
  })
  .meta({ id: 'PublicJwk', description: 'A public key as a JWK (RFC 7517).' });

export const jwkSet = jsonAnswer(z.object({ keys: z.array(jwk) }));

const multikey = z.object({
  '@context': z.string(),
  id: z.string(),
  type: z.literal('Multikey'),
  controller: z.string().describe('The issuer Profile (GET contexts/current/issuer).'),
  publicKeyMultibase: z.string(),
});
export const publicKey = jsonAnswer(
  z.union([
    jwk,
    multikey.describe("A Data Integrity key: the Multikey an embedded proof's verificationMethod names."),
  ]),
);

const image = z.object({ id: z.string(), type: z.literal('Image') });
const profile = z.looseObject({
  id: z.string(),
  type: z.array(z.string()),
  name: z.string(),
  url: z.string(),
  image: image.optional(),
});

const proof = z.looseObject({
  type: z.literal('DataIntegrityProof'),
  cryptosuite: z.string(),
  verificationMethod: z.string(),
  proofPurpose: z.literal('assertionMethod'),
  proofValue: z.string(),
});

/** A W3C Verifiable Credential (Data Model 2.0); `proof` when it carries an embedded one. */
const credential = z
  .looseObject({
    '@context': z.array(z.string()),
    id: z.string(),
    type: z.array(z.string()),
    issuer: z.union([z.string(), profile]),
    validFrom: z.string(),
    credentialSubject: z.looseObject({ id: z.string() }),
    proof: proof.optional(),
  })
  .meta({ id: 'VerifiableCredential' });

export const issuer = jsonAnswer(
  profile.extend({
    '@context': z.array(z.string()),
    assertionMethod: z
      .array(z.string())
      .optional()
      .describe('The Data Integrity keys its embedded proofs may name, retired ones included.'),
  }),
);

const signedJwt = bytes('The compact JWS (VC-JWT, OB 3.0 §8.2).');

export const revocationList = jsonAnswer(
  z.union([
    signedJwt,
    credential.describe(
      'With Accept: application/json or application/ld+json: the list with its embedded proof.',
    ),
  ]),
);

export const credentialForms = jsonAnswer(
  z.union([
    signedJwt,
    credential.describe('With Accept: application/vc+ld+json: the credential with its embedded proof.'),
    z
      .object({
        credential,
        jwt: z.string(),
        jwks: z.string().describe('The URL of the key set that verifies the JWT.'),
        verificationUrl: z.string(),
      })
      .describe('With Accept: application/json: both forms, the key set and the verification page.'),
  ]),
);

export const verification = jsonAnswer(
  z.union([
    z
      .object({
        status: z.enum(['valid', 'revoked']),
        url: z.string(),
        wording: z.enum(CERTIFICATION_WORDING_VALUES),
        tenant: z.string(),
        learner: z.string(),
        course: z.string(),
        score: z.number(),
        scoreScale: z.number(),
        date: z.string(),
        reference: z.string(),
      })
      .describe('With Accept: application/json.'),
    bytes('The verification page (HTML), in the language asked for.'),
  ]),
);

export const verificationNotFound = bytes('No such certificate: the page that says so (HTML).');
export const pdf = bytes('The certificate (PDF), as an attachment.');
export const badgeImage = bytes('The badge image (SVG).');
export const revoked = noBody('Revoked.');

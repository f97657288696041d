import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { CERTIFICATE_SCORE_SCALE } from '@parcours/domain/constants';
import type { CertificateSnapshot } from './repository';
import { SIGNING_ALG } from './keys';
import type { SigningKey } from './keys';
import { DOC_TEXTS } from './texts';
import type { DocLocale } from './texts';

/**
 * The certificate as an Open Badges 3.0 credential: a W3C Verifiable Credential (data model
 * 2.0) of type OpenBadgeCredential, secured as a compact JWS following "Securing Verifiable
 * Credentials using JOSE and COSE" (header `typ: vc+jwt`, `cty: vc`; the payload is the
 * credential itself, no `vc` claim) with EdDSA over Ed25519. Registered claims iss/jti/nbf
 * repeat issuer.id, id and validFrom so JWT-only verifiers can check them too (OB 3.0 §8.2).
 * Decision record: docs/decisions/0012-certificate-documents-and-credentials.md.
 */

export const VC_CONTEXT_V2 = 'https://www.w3.org/ns/credentials/v2';
export const OB_CONTEXT = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';

export interface IssuerUrls {
  /** e.g. https://school.example/api/contexts/current/issuer */
  issuerId: string;
  /** Public web origin of the tenant. */
  origin: string;
  jwksUrl: string;
  verificationUrl: string;
  achievementId: string;
  logoUrl: string | null;
}

/** The issuer Profile (OB 3.0 Profile), also served on its own at `issuerId`. */
export function issuerProfile(
  tenantName: string,
  urls: Pick<IssuerUrls, 'issuerId' | 'origin' | 'logoUrl'>,
): Record<string, unknown> {
  return {
    id: urls.issuerId,
    type: ['Profile'],
    name: tenantName,
    url: urls.origin,
    ...(urls.logoUrl ? { image: { id: urls.logoUrl, type: 'Image' } } : {}),
  };
}

export interface LearnerIdentity {
  email: string;
}

/**
 * The learner is named by a salted hash of their e-mail (OB 3.0 IdentityObject) rather than
 * the address itself; the display name is on the credential's human-readable name.
 */
function identifierOf(learner: LearnerIdentity, salt: string) {
  const hash = createHash('sha256')
    .update(learner.email.trim().toLowerCase() + salt)
    .digest('hex');
  return {
    type: 'IdentityObject',
    identityHash: `sha256$${hash}`,
    identityType: 'emailAddress',
    hashed: true,
    salt,
  };
}

export function buildCredential(
  s: CertificateSnapshot,
  locale: DocLocale,
  urls: IssuerUrls,
  learner: LearnerIdentity,
  salt: string = randomBytes(8).toString('hex'),
): Record<string, unknown> {
  const t = DOC_TEXTS[locale];
  const scoreDescription = `${urls.achievementId}#score`;
  return {
    '@context': [VC_CONTEXT_V2, OB_CONTEXT],
    id: urls.verificationUrl,
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: `${t.title[s.wording]} — ${s.courseTitle} — ${s.learnerName}`,
    issuer: issuerProfile(s.tenantName, urls),
    validFrom: new Date(s.endedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [identifierOf(learner, salt)],
      achievement: {
        id: urls.achievementId,
        type: ['Achievement'],
        achievementType: s.wording === 'certification' ? 'Certificate' : 'Achievement',
        name: s.courseTitle,
        description: `${t.title[s.wording]} — ${s.courseTitle}`,
        criteria: { narrative: `${t.forCourse} « ${s.courseTitle} ».` },
        resultDescription: [
          {
            id: scoreDescription,
            type: ['ResultDescription'],
            name: t.score,
            resultType: 'ScaledScore',
            valueMin: '0',
            valueMax: String(CERTIFICATE_SCORE_SCALE),
          },
        ],
      },
      result: [{ type: ['Result'], resultDescription: scoreDescription, value: String(s.score) }],
    },
    evidence: [{ id: urls.verificationUrl, type: ['Evidence'], name: `${t.reference} ${s.reference}` }],
  };
}

export async function signCredential(
  credential: Record<string, unknown>,
  key: SigningKey,
  kidUri: string,
): Promise<string> {
  const issuer = credential.issuer as { id: string };
  const nbf = Math.floor(Date.parse(String(credential.validFrom)) / 1000);
  return new SignJWT(credential)
    .setProtectedHeader({ alg: SIGNING_ALG, kid: kidUri, typ: 'vc+jwt', cty: 'vc' })
    .setIssuer(issuer.id)
    .setJti(String(credential.id))
    .setNotBefore(nbf)
    .setIssuedAt()
    .sign(key.privateKey);
}

import { createHash, randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { CERTIFICATE_SCORE_SCALE } from '@parcours/domain/constants';
import type { CertificateSnapshot } from './repository';
import type { SigningKey } from './keys';
import { fill } from '../../lib/i18n';
import { DOC_TEXTS } from './texts';
import type { DocLocale } from './texts';

/**
 * The certificate as an Open Badges 3.0 credential: a W3C Verifiable Credential (data model
 * 2.0) of type OpenBadgeCredential, secured as OB 3.0 §8.2 says (a compact JWS, header
 * `{alg: ES256, kid, typ: JWT}` and nothing else, the payload the credential itself with the
 * claims iss/sub/jti/nbf repeating issuer.id, credentialSubject.id, id and validFrom). The
 * learner is `credentialSubject.id`, a `urn:uuid` per learner and tenant, and the credential
 * carries a Bitstring Status List entry that a reset or a revocation flips. The same credential
 * also carries an embedded Data Integrity proof (data-integrity.ts), the form wallets read.
 * Decision records: 0012, 0041, 0058.
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
  /** The Achievement's picture (OB 3.0 `image`): the certificate's badge, served by the API. */
  achievementImageUrl: string;
  logoUrl: string | null;
}

export interface IssuerProfile {
  id: string;
  type: string[];
  name: string;
  url: string;
  image?: { id: string; type: 'Image' };
}

/** The issuer Profile (OB 3.0 Profile), also served on its own at `issuerId`. */
export function issuerProfile(
  tenantName: string,
  urls: Pick<IssuerUrls, 'issuerId' | 'origin' | 'logoUrl'>,
): IssuerProfile {
  return {
    id: urls.issuerId,
    type: ['Profile'],
    name: tenantName,
    url: urls.origin,
    ...(urls.logoUrl ? { image: { id: urls.logoUrl, type: 'Image' as const } } : {}),
  };
}

export interface LearnerIdentity {
  email: string;
  /** `urn:uuid:…`, the same for one learner across the tenant's credentials (subjectIdOf). */
  subjectId: string;
}

/** A stable `urn:uuid` for a learner of a tenant (RFC 9562 version 8, from a SHA-256). */
export function subjectIdOf(contextId: string, userId: string): string {
  const h = createHash('sha256').update(`parcours:learner:${contextId}:${userId}`).digest('hex');
  const variant = ((parseInt(h[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Where the credential's revocation bit is: the tenant's status list and its index there. */
export interface StatusEntry {
  listUrl: string;
  index: number;
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
  status: StatusEntry,
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
      id: learner.subjectId,
      type: ['AchievementSubject'],
      identifier: [identifierOf(learner, salt)],
      achievement: {
        id: urls.achievementId,
        type: ['Achievement'],
        achievementType: s.wording === 'certification' ? 'Certificate' : 'Achievement',
        name: s.courseTitle,
        image: { id: urls.achievementImageUrl, type: 'Image' },
        description: `${t.title[s.wording]} — ${s.courseTitle}`,
        criteria: { narrative: fill(t.criteria, { course: s.courseTitle }) },
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
    credentialStatus: {
      id: `${status.listUrl}#${status.index}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: String(status.index),
      statusListCredential: status.listUrl,
    },
  };
}

/** The registered JWT claims the JWT form adds; none of them is a term of the VC or OB contexts. */
const JWT_CLAIMS = ['iss', 'sub', 'jti', 'nbf', 'iat', 'exp', 'aud'];

/**
 * The credential a JWT carries, without the JWT's registered claims: the document its embedded
 * proof signs (the claims only repeat its members, and would fail JSON-LD safe mode).
 */
export function credentialOfJwtPayload(payload: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(payload).filter(([k]) => !JWT_CLAIMS.includes(k)));
}

/**
 * Signs a credential as OB 3.0 §8.2 asks: `kid` a URL that answers the one public JWK, `typ`
 * JWT, no other header; the claims map the credential (sub only when the subject has an id).
 */
export async function signCredential(
  credential: Record<string, unknown>,
  key: SigningKey,
  kidUri: string,
): Promise<string> {
  const issuer = credential.issuer as { id: string } | string;
  const subject = credential.credentialSubject as { id?: string };
  const nbf = Math.floor(Date.parse(String(credential.validFrom)) / 1000);
  const jwt = new SignJWT(credential)
    .setProtectedHeader({ alg: key.alg, kid: kidUri, typ: 'JWT' })
    .setIssuer(typeof issuer === 'string' ? issuer : issuer.id)
    .setJti(String(credential.id))
    .setNotBefore(nbf)
    .setIssuedAt();
  if (subject.id) jwt.setSubject(subject.id);
  return jwt.sign(key.privateKey);
}

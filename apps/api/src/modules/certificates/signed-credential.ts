import { decodeJwt } from 'jose';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/db';
import type { CertificateSnapshot } from './repository';
import { buildCredential, credentialOfJwtPayload, signCredential, subjectIdOf } from './credential';
import { dataIntegrityKey, signDataIntegrity } from './data-integrity';
import { activeSigningKey } from './keys';
import type { DocLocale } from './texts';
import type { Achievement } from './service';
import { logoUrl, verificationPath } from './service';
import { statusIndexOf } from './status-list';
import { badgePath, ISSUER_PATH, issuerKeyUrls, JWKS_PATH, kidUrl, STATUS_PATH } from './urls';

/** The one credential of an achievement in its two secured forms. */
export interface SignedCredential {
  /** OB 3.0 §8.2 VC-JWT (compact JWS). */
  jwt: string;
  /** The same credential with its embedded `eddsa-rdfc-2022` proof. */
  ld: Record<string, unknown>;
}

/** What the credential of a certificate about to be stored says. */
export interface CredentialFacts {
  certificateId: string;
  snapshot: CertificateSnapshot;
  locale: DocLocale;
  origin: string;
  learnerEmail: string;
  courseId: string;
  userId: string;
  statusIndex: number;
}

/**
 * One credential built with its status list entry and secured both as a JWT and with an
 * embedded proof (issues 28 and 39). Signs only: the award stores both with the certificate
 * (award.ts), so a credential is never re-signed under the same `id`.
 */
export async function signCredentialForms(
  db: Db,
  context: { id: string; assets: string },
  secret: string,
  f: CredentialFacts,
): Promise<SignedCredential> {
  const urls = {
    issuerId: `${f.origin}${ISSUER_PATH}`,
    origin: f.origin,
    jwksUrl: `${f.origin}${JWKS_PATH}`,
    verificationUrl: `${f.origin}${verificationPath(f.certificateId)}`,
    achievementId: `${f.origin}/api/courses/${encodeURIComponent(f.courseId)}`,
    achievementImageUrl: `${f.origin}${badgePath(f.certificateId, f.locale)}`,
    logoUrl: logoUrl(f.origin, context.assets),
  };
  const credential = buildCredential(
    f.snapshot,
    f.locale,
    urls,
    { email: f.learnerEmail, subjectId: subjectIdOf(context.id, f.userId) },
    { listUrl: `${f.origin}${STATUS_PATH}`, index: f.statusIndex },
  );
  const key = await activeSigningKey(db, context.id, secret);
  const jwt = await signCredential(credential, key, kidUrl(f.origin, key.kid, key.alg));
  const diKey = await dataIntegrityKey(db, context.id, secret, issuerKeyUrls(f.origin));
  return { jwt, ld: await signDataIntegrity(credential, diKey) };
}

/** The forms stored with an awarded certificate. */
export function storedCredential(a: Achievement): SignedCredential {
  return {
    jwt: a.certificate.credentialJwt as string,
    ld: JSON.parse(a.certificate.credentialLd as string) as Record<string, unknown>,
  };
}

/**
 * A certificate awarded before its credential was signed at award time (a download issued it,
 * decisions 0012 and 0041) gets what it lacks when it is awarded again: the JWT and the embedded
 * proof, or only the proof, over exactly what its JWT carries. Conditional updates: two awards
 * at once store one.
 */
export async function completeCredential(
  app: FastifyInstance,
  a: Achievement,
  userId: string,
  context: { id: string; assets: string },
  secret: string,
): Promise<void> {
  const c = a.certificate;
  if (c.credentialJwt) {
    const diKey = await dataIntegrityKey(app.db, context.id, secret, issuerKeyUrls(a.origin));
    const ld = await signDataIntegrity(credentialOfJwtPayload(decodeJwt(c.credentialJwt)), diKey);
    await app.db
      .updateTable('certificates')
      .set({ credentialLd: JSON.stringify(ld) })
      .where('id', '=', c.id)
      .where('credentialLd', 'is', null)
      .execute();
    return;
  }
  const signed = await signCredentialForms(app.db, context, secret, {
    certificateId: c.id,
    snapshot: a.snapshot,
    locale: a.locale,
    origin: a.origin,
    learnerEmail: a.learnerEmail,
    courseId: a.courseId,
    userId,
    statusIndex: await statusIndexOf(app.db, context.id, c.id),
  });
  await app.db
    .updateTable('certificates')
    .set({ credentialJwt: signed.jwt, credentialLd: JSON.stringify(signed.ld) })
    .where('id', '=', c.id)
    .where('credentialJwt', 'is', null)
    .execute();
}

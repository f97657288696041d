import { decodeJwt } from 'jose';
import type { FastifyInstance } from 'fastify';
import { buildCredential, credentialOfJwtPayload, signCredential, subjectIdOf } from './credential';
import { dataIntegrityKey, signDataIntegrity } from './data-integrity';
import { activeSigningKey } from './keys';
import type { Achievement } from './service';
import { logoUrl } from './service';
import { statusIndexOf } from './status-list';
import { badgePath, ISSUER_PATH, issuerKeyUrls, JWKS_PATH, kidUrl, STATUS_PATH } from './urls';

/** The one credential of an achievement in its two secured forms. */
export interface SignedCredential {
  /** OB 3.0 §8.2 VC-JWT (compact JWS). */
  jwt: string;
  /** The same credential with its embedded `eddsa-rdfc-2022` proof. */
  ld: Record<string, unknown>;
}

/**
 * One signed credential per achievement (issues 28 and 39): built once with a status list
 * entry, secured both as a JWT and with an embedded proof, stored, then re-served as is —
 * never re-signed under the same `id`. A credential signed as a JWT only, before the embedded
 * proof existed, gets its proof over exactly what its JWT carries.
 */
export async function signedCredentialOf(
  app: FastifyInstance,
  a: Achievement,
  userId: string,
  context: { id: string; assets: string },
  secret: string,
): Promise<SignedCredential> {
  const c = a.certificate;
  if (c.credentialJwt && c.credentialLd)
    return { jwt: c.credentialJwt, ld: JSON.parse(c.credentialLd) as Record<string, unknown> };
  const diKey = await dataIntegrityKey(app.db, context.id, secret, issuerKeyUrls(a.origin));
  if (c.credentialJwt) {
    const ld = await signDataIntegrity(credentialOfJwtPayload(decodeJwt(c.credentialJwt)), diKey);
    await app.db
      .updateTable('certificates')
      .set({ credentialLd: JSON.stringify(ld) })
      .where('id', '=', c.id)
      .where('credentialLd', 'is', null)
      .execute();
  } else {
    const urls = {
      issuerId: `${a.origin}${ISSUER_PATH}`,
      origin: a.origin,
      jwksUrl: `${a.origin}${JWKS_PATH}`,
      verificationUrl: a.verificationUrl,
      achievementId: `${a.origin}/api/courses/${encodeURIComponent(a.courseId)}`,
      achievementImageUrl: `${a.origin}${badgePath(c.id, a.locale)}`,
      logoUrl: logoUrl(a.origin, context.assets),
    };
    const index = await statusIndexOf(app.db, context.id, c.id);
    const credential = buildCredential(
      a.snapshot,
      a.locale,
      urls,
      { email: a.learnerEmail, subjectId: subjectIdOf(context.id, userId) },
      { listUrl: `${a.origin}${STATUS_PATH}`, index },
    );
    const key = await activeSigningKey(app.db, context.id, secret);
    const jwt = await signCredential(credential, key, kidUrl(a.origin, key.kid, key.alg));
    const ld = await signDataIntegrity(credential, diKey);
    // Two first downloads at once: the first stored wins (both forms together), both serve it.
    await app.db
      .updateTable('certificates')
      .set({ credentialJwt: jwt, credentialLd: JSON.stringify(ld) })
      .where('id', '=', c.id)
      .where('credentialJwt', 'is', null)
      .execute();
  }
  const row = await app.db
    .selectFrom('certificates')
    .select(['credentialJwt', 'credentialLd'])
    .where('id', '=', c.id)
    .executeTakeFirstOrThrow();
  return {
    jwt: row.credentialJwt as string,
    ld: JSON.parse(row.credentialLd as string) as Record<string, unknown>,
  };
}

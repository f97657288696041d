import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';

/**
 * Per-tenant signing keys for credentials: ES256 (ECDSA over P-256), which Open Badges 3.0
 * verifiers accept (§8.2.2; issue 28, decision 0041). Keys made before (EdDSA over Ed25519)
 * are retired, never deleted: their public parts stay published so what they signed still
 * verifies. The private JWK is
 * sealed with AES-256-GCM under a key derived (HKDF) from the server secret, so the database
 * alone does not let anyone sign. If the secret changes, the sealed key no longer opens: the
 * key is retired (its public part stays published, so what it signed still verifies) and a
 * new one is made.
 */

export const SIGNING_ALG = 'ES256';

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
}

function sealingKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'parcours', 'credential signing keys v1', 32));
}

export function seal(plain: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(secret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function unseal(sealed: string, secret: string): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(secret), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    return null;
  }
}

/** Only the public members of an EC or OKP key: never `d`, whatever was stored. */
function publicOnly(jwk: JWK, kid: string, alg: string): JWK {
  const ec = jwk.kty === 'EC' ? { y: jwk.y } : {};
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, ...ec, kid, alg, use: 'sig' } as JWK;
}

async function createKey(db: Db, contextId: string, secret: string, now: string): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const priv = await exportJWK(privateKey);
  await db
    .insertInto('signingKeys')
    .values({
      id: kid,
      contextId,
      alg: SIGNING_ALG,
      publicJwk: JSON.stringify(publicOnly(pub, kid, SIGNING_ALG)),
      privateJwk: seal(JSON.stringify(priv), secret),
      createdAt: now,
      retiredAt: null,
    })
    // Another process made the tenant's key first (partial unique index): use theirs.
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** The tenant's active key, made on first use. */
export async function activeSigningKey(
  db: Db,
  contextId: string,
  secret: string,
  now: Date = new Date(),
): Promise<SigningKey> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await db
      .selectFrom('signingKeys')
      .select(['id', 'alg', 'privateJwk'])
      .where('contextId', '=', contextId)
      .where('retiredAt', 'is', null)
      .executeTakeFirst();
    if (!row) {
      await createKey(db, contextId, secret, now.toISOString());
      continue;
    }
    const plain = row.alg === SIGNING_ALG ? unseal(row.privateJwk, secret) : null;
    if (plain) {
      const privateKey = (await importJWK(parseJson<JWK>(plain, {}), SIGNING_ALG)) as CryptoKey;
      return { kid: row.id, alg: SIGNING_ALG, privateKey };
    }
    // Sealed under another secret, or of an algorithm OB 3.0 verifiers refuse (EdDSA): retire
    // it (still published) and make a new one.
    await db
      .updateTable('signingKeys')
      .set({ retiredAt: now.toISOString() })
      .where('id', '=', row.id)
      .where('retiredAt', 'is', null)
      .execute();
  }
  throw new Error('no usable signing key');
}

/** Public keys of the tenant, active and retired, as a JWK Set (RFC 7517 §5). */
export async function tenantJwks(db: Db, contextId: string): Promise<{ keys: JWK[] }> {
  const rows = await db
    .selectFrom('signingKeys')
    .select(['id', 'alg', 'publicJwk'])
    .where('contextId', '=', contextId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return { keys: rows.map((r) => publicOnly(parseJson<JWK>(r.publicJwk, {}), r.id, r.alg)) };
}

/** One public key of the tenant by its thumbprint (what a credential's `kid` URL answers). */
export async function tenantPublicKey(db: Db, contextId: string, kid: string): Promise<JWK | null> {
  const row = await db
    .selectFrom('signingKeys')
    .select(['id', 'alg', 'publicJwk'])
    .where('contextId', '=', contextId)
    .where('id', '=', kid)
    .executeTakeFirst();
  return row ? publicOnly(parseJson<JWK>(row.publicJwk, {}), row.id, row.alg) : null;
}

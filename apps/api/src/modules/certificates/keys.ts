import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';

/**
 * Per-tenant signing keys for credentials, one active per purpose (decision 0058): ES256
 * (ECDSA over P-256) for the JWT form, which Open Badges 3.0 verifiers accept (§8.2.2; issue
 * 28, decision 0041), and Ed25519 for the embedded `eddsa-rdfc-2022` proof that wallets read
 * (data-integrity.ts). Keys made before for the JWT form (EdDSA over Ed25519) are retired,
 * never deleted: their public parts stay published so what they signed still verifies. The
 * private JWK is sealed with AES-256-GCM under a key derived (HKDF) from the server secret, so
 * the database alone does not let anyone sign. If the secret changes, the sealed key no longer
 * opens: the key is retired (its public part stays published, so what it signed still
 * verifies) and a new one is made.
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

/** What a key is for (migration 0027): each tenant has at most one active key of each. */
export type KeyPurpose = 'vc-jwt' | 'data-integrity';

/** The algorithm a purpose signs with now: ES256 for the JWT form, Ed25519 for eddsa-rdfc-2022. */
const ALG_OF: Record<KeyPurpose, string> = { 'vc-jwt': SIGNING_ALG, 'data-integrity': 'Ed25519' };

async function createKey(
  db: Db,
  contextId: string,
  secret: string,
  now: string,
  purpose: KeyPurpose,
): Promise<void> {
  const alg = ALG_OF[purpose];
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const priv = await exportJWK(privateKey);
  await db
    .insertInto('signingKeys')
    .values({
      id: kid,
      contextId,
      alg,
      purpose,
      publicJwk: JSON.stringify(publicOnly(pub, kid, alg)),
      privateJwk: seal(JSON.stringify(priv), secret),
      createdAt: now,
      retiredAt: null,
    })
    // Another process made the tenant's key first (partial unique index): use theirs.
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * The tenant's active key of a purpose, made on first use, as its id and private JWK. A key
 * sealed under another secret, or of an algorithm the purpose no longer signs with (EdDSA for
 * the JWT form: OB 3.0 verifiers refuse it), is retired (still published) and a new one made.
 */
export async function activeKey(
  db: Db,
  contextId: string,
  secret: string,
  purpose: KeyPurpose,
  now: Date = new Date(),
): Promise<{ kid: string; alg: string; jwk: JWK }> {
  const alg = ALG_OF[purpose];
  for (let attempt = 0; attempt < 3; attempt++) {
    const row = await db
      .selectFrom('signingKeys')
      .select(['id', 'alg', 'privateJwk'])
      .where('contextId', '=', contextId)
      .where('purpose', '=', purpose)
      .where('retiredAt', 'is', null)
      .executeTakeFirst();
    if (!row) {
      await createKey(db, contextId, secret, now.toISOString(), purpose);
      continue;
    }
    const plain = row.alg === alg ? unseal(row.privateJwk, secret) : null;
    if (plain) return { kid: row.id, alg, jwk: parseJson<JWK>(plain, {}) };
    await db
      .updateTable('signingKeys')
      .set({ retiredAt: now.toISOString() })
      .where('id', '=', row.id)
      .where('retiredAt', 'is', null)
      .execute();
  }
  throw new Error('no usable signing key');
}

/** The tenant's active key for the JWT form (ES256). */
export async function activeSigningKey(
  db: Db,
  contextId: string,
  secret: string,
  now: Date = new Date(),
): Promise<SigningKey> {
  const { kid, jwk } = await activeKey(db, contextId, secret, 'vc-jwt', now);
  const privateKey = (await importJWK(jwk, SIGNING_ALG)) as CryptoKey;
  return { kid, alg: SIGNING_ALG, privateKey };
}

/** Public keys of the tenant, active and retired, as a JWK Set (RFC 7517 §5). */
export async function tenantJwks(db: Db, contextId: string): Promise<{ keys: JWK[] }> {
  const rows = await db
    .selectFrom('signingKeys')
    .select(['id', 'alg', 'publicJwk'])
    .where('contextId', '=', contextId)
    // The Data Integrity key is published as its did:key, not in the JWT form's key set.
    .where('purpose', '=', 'vc-jwt')
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
    .where('purpose', '=', 'vc-jwt')
    .where('id', '=', kid)
    .executeTakeFirst();
  return row ? publicOnly(parseJson<JWK>(row.publicJwk, {}), row.id, row.alg) : null;
}

/** The tenant's Data Integrity keys, active and retired (or the one named), as public JWKs. */
export async function dataIntegrityPublicKeys(
  db: Db,
  contextId: string,
  kid?: string,
): Promise<{ kid: string; jwk: JWK }[]> {
  let q = db
    .selectFrom('signingKeys')
    .select(['id', 'alg', 'publicJwk'])
    .where('contextId', '=', contextId)
    .where('purpose', '=', 'data-integrity');
  if (kid !== undefined) q = q.where('id', '=', kid);
  const rows = await q.orderBy('createdAt').orderBy('id').execute();
  return rows.map((r) => ({ kid: r.id, jwk: publicOnly(parseJson<JWK>(r.publicJwk, {}), r.id, r.alg) }));
}

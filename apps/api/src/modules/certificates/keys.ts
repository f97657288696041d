import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import type { CryptoKey, JWK } from 'jose';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';

/**
 * Per-tenant signing keys for credentials (EdDSA over Ed25519, RFC 8037). The private JWK is
 * sealed with AES-256-GCM under a key derived (HKDF) from the server secret, so the database
 * alone does not let anyone sign. If the secret changes, the sealed key no longer opens: the
 * key is retired (its public part stays published, so what it signed still verifies) and a
 * new one is made.
 */

export const SIGNING_ALG = 'EdDSA';

export interface SigningKey {
  kid: string;
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

/** Only the public members of an OKP key: never `d`, whatever was stored. */
function publicOnly(jwk: JWK, kid: string): JWK {
  return { kty: jwk.kty, crv: jwk.crv, x: jwk.x, kid, alg: SIGNING_ALG, use: 'sig' } as JWK;
}

async function createKey(db: Db, contextId: string, secret: string, now: string): Promise<void> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519', extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  const priv = await exportJWK(privateKey);
  await db
    .insertInto('signingKeys')
    .values({
      id: kid,
      contextId,
      alg: SIGNING_ALG,
      publicJwk: JSON.stringify(publicOnly(pub, kid)),
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
      .select(['id', 'privateJwk'])
      .where('contextId', '=', contextId)
      .where('retiredAt', 'is', null)
      .executeTakeFirst();
    if (!row) {
      await createKey(db, contextId, secret, now.toISOString());
      continue;
    }
    const plain = unseal(row.privateJwk, secret);
    if (plain) {
      const privateKey = (await importJWK(parseJson<JWK>(plain, {}), SIGNING_ALG)) as CryptoKey;
      return { kid: row.id, privateKey };
    }
    // Sealed under another secret: retire it (still published) and make a new one.
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
    .select(['id', 'publicJwk'])
    .where('contextId', '=', contextId)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return { keys: rows.map((r) => publicOnly(parseJson<JWK>(r.publicJwk, {}), r.id)) };
}

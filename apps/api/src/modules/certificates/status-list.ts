import { randomInt } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import type { Db } from '../../db/db';
import { parseJson } from '../../db/schema';
import { uniqueViolation } from '../../db/constraint-errors';
import { VC_CONTEXT_V2 } from './credential';
import type { SigningKey } from './keys';
import type { CertificateSnapshot } from './repository';
import { certificateStatus } from './service';

/**
 * The tenant's revocation list as a W3C Bitstring Status List v1.0 (issue 28, decision 0041):
 * each credential holds one bit (`status_index`), set when its certificate reads as revoked —
 * the lesson reset or ended again, or an administrator's revocation. The list is computed from
 * the certificates when asked, so it can never disagree with the verification page, and is
 * served as a credential signed by the tenant's key: as a JWT, or with an embedded Data
 * Integrity proof for verifiers that read those (decision 0058).
 */

/** §2.1: at least 131,072 entries, so one bit does not single a learner out by the list's size. */
const MIN_BITS = 131_072;

/**
 * The certificate's index in the list, given once, at random (the Bitstring Status List's
 * advice: a sequential index would tell a verifier the order of issue and the list's growth),
 * within a list kept at most a quarter full; unique per tenant, drawn again on a collision.
 */
export async function statusIndexOf(db: Db, contextId: string, certificateId: string): Promise<number> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const row = await db
      .selectFrom('certificates')
      .select('statusIndex')
      .where('id', '=', certificateId)
      .executeTakeFirstOrThrow();
    if (row.statusIndex !== null) return row.statusIndex;
    try {
      await db
        .updateTable('certificates')
        .set({ statusIndex: await drawStatusIndex(db, contextId) })
        .where('id', '=', certificateId)
        .where('statusIndex', 'is', null)
        .execute();
    } catch (err) {
      // Another certificate of the tenant holds this index: draw again.
      if (!uniqueViolation(err)) throw err;
    }
  }
  throw new Error('no status list index could be given');
}

/** A random index for a new entry (reads only; the tenant's unique index refuses a taken one). */
export async function drawStatusIndex(db: Db, contextId: string): Promise<number> {
  const used = await db
    .selectFrom('certificates')
    .select((eb) => eb.fn.count<number>('statusIndex').as('n'))
    .where('contextId', '=', contextId)
    .executeTakeFirst();
  const size = Math.max(MIN_BITS, Math.ceil(((Number(used?.n ?? 0) + 1) * 4) / MIN_BITS) * MIN_BITS);
  return randomInt(size);
}

/** The list's bits: bit i (most significant bit first, §3.2) is 1 when entry i is revoked. */
export async function revocationBits(db: Db, contextId: string): Promise<Buffer> {
  const rows = await db
    .selectFrom('certificates as ce')
    .leftJoin('lessons as l', 'l.id', 'ce.lessonId')
    .select([
      'ce.statusIndex',
      'ce.revokedAt',
      'ce.issuedFor',
      'ce.snapshot',
      'l.certificationRef as lessonRef',
      'l.endedAt as lessonEndedAt',
    ])
    .where('ce.contextId', '=', contextId)
    .where('ce.statusIndex', 'is not', null)
    .execute();
  const top = rows.reduce((m, r) => Math.max(m, r.statusIndex ?? 0), 0);
  const bits = Buffer.alloc(Math.max(MIN_BITS, Math.ceil((top + 1) / MIN_BITS) * MIN_BITS) / 8);
  for (const r of rows) {
    const reference = parseJson<CertificateSnapshot>(r.snapshot, {} as CertificateSnapshot).reference;
    if (certificateStatus(r, reference) === 'revoked') {
      const i = r.statusIndex as number;
      bits[i >> 3] = (bits[i >> 3] as number) | (0x80 >> (i & 7));
    }
  }
  return bits;
}

/** The BitstringStatusListCredential (§2.2), unsigned: computed from the certificates now. */
export async function statusListCredential(
  db: Db,
  contextId: string,
  urls: { listUrl: string; issuerId: string },
  now: Date,
) {
  const encodedList = `u${gzipSync(await revocationBits(db, contextId)).toString('base64url')}`;
  return {
    '@context': [VC_CONTEXT_V2],
    id: urls.listUrl,
    type: ['VerifiableCredential', 'BitstringStatusListCredential'],
    issuer: urls.issuerId,
    validFrom: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    credentialSubject: {
      id: `${urls.listUrl}#list`,
      type: 'BitstringStatusList',
      statusPurpose: 'revocation',
      encodedList,
    },
  };
}

/** The list signed like the credentials' JWT form (OB 3.0 §8.2 header). */
export async function signStatusListJwt(
  credential: Awaited<ReturnType<typeof statusListCredential>>,
  key: SigningKey,
  kidUri: string,
): Promise<string> {
  return new SignJWT(credential)
    .setProtectedHeader({ alg: key.alg, kid: kidUri, typ: 'JWT' })
    .setIssuer(credential.issuer)
    .setJti(credential.id)
    .setSubject(credential.credentialSubject.id)
    .setNotBefore(Math.floor(Date.parse(credential.validFrom) / 1000))
    .sign(key.privateKey);
}

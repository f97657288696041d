import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import type { JWK } from 'jose';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { award, cert, seedCertificates } from './certificates-seed';

/**
 * A verifier that follows Open Badges 3.0 §8 ("Verification and Validation") and §8.2 (VC-JWT
 * proof) step by step, as an outside tool would: it knows only the JWT and fetches by URL
 * (here through the app, on the URL's host). Issue 28: today's credentials (EdDSA, a `kid`
 * into a key set, no `sub`, no status) must fail it; ours must pass, and turn revoked once the
 * lesson is reset.
 */
let t: TestContext;
let anna: string;
beforeAll(async () => {
  t = await startTestApp();
  await seedCertificates(t.tdb.db);
  anna = await login(t.app, 'anna@example.test');
  await award(t.app, cert.ended, anna);
  await award(t.app, cert.byType, anna);
});
afterAll(async () => {
  await t.close();
});

/** GET an absolute URL as a cross-origin browser verifier would (Origin header, no token). */
async function fetchUrl(url: string, accept = 'application/json') {
  const u = new URL(url);
  const res = await get(t.app, `${u.pathname}${u.search}`, undefined, u.host, {
    headers: { accept, origin: 'https://verifier.example' },
  });
  if (res.headers['access-control-allow-origin'] !== '*')
    throw new Error(`${u.pathname} cannot be read cross-origin`);
  if (res.statusCode !== 200) throw new Error(`${u.pathname} answered ${res.statusCode}`);
  return res;
}

type Result = { valid: true; revoked: boolean } | { valid: false; reason: string };

/** OB 3.0 §8.2.4 "Verify a Credential" then §8.2.4.1, and §8.1 step 4 (status). */
async function verifyOb3(jwt: string): Promise<Result> {
  const fail = (reason: string): Result => ({ valid: false, reason });
  // §8.2.2 JOSE header: alg RS256 (or ES256, which 1EdTech's validator accepts), kid or jwk,
  // typ "JWT" if present, and no other header.
  const header = decodeProtectedHeader(jwt);
  const extra = Object.keys(header).filter((k) => !['alg', 'kid', 'jwk', 'typ'].includes(k));
  if (extra.length > 0) return fail(`extra JOSE headers: ${extra.join(', ')}`);
  if (!['RS256', 'ES256'].includes(String(header.alg))) return fail(`alg ${String(header.alg)}`);
  if (header.typ !== undefined && header.typ !== 'JWT') return fail(`typ ${header.typ}`);
  // Step 2: dereference the kid to one JWK.
  if (typeof header.kid !== 'string') return fail('no kid');
  const jwk = (await fetchUrl(header.kid)).json() as JWK & { keys?: unknown };
  if (jwk.keys !== undefined || typeof jwk.kty !== 'string') return fail('kid is not one JWK');
  if (jwk.d !== undefined) return fail('private key published');
  // Step 4: the signature.
  let payload: Record<string, unknown>;
  try {
    payload = (await jwtVerify(jwt, await importJWK(jwk, header.alg), { algorithms: [header.alg as string] }))
      .payload;
  } catch (err) {
    return fail(`signature: ${String(err)}`);
  }
  // §8.2.4.1: the claims map the credential.
  const c = payload;
  const subject = c.credentialSubject as { id?: string; identifier?: unknown[] };
  if (!(c.type as string[]).includes('OpenBadgeCredential')) return fail('not an OpenBadgeCredential');
  if (payload.iss !== (c.issuer as { id: string }).id) return fail('iss');
  if (typeof payload.sub !== 'string' || payload.sub !== subject.id) return fail('sub');
  if (payload.nbf !== Date.parse(String(c.validFrom)) / 1000) return fail('nbf');
  if (Date.parse(String(c.validFrom)) > Date.now()) return fail('not yet valid');
  if (payload.jti !== c.id) return fail('jti');
  // §8.1 step 1: the subject is identified.
  if (!subject.id && !subject.identifier) return fail('unidentified subject');
  // §8.1 step 4: the status (W3C Bitstring Status List, statusPurpose revocation).
  const status = c.credentialStatus as
    | { type: string; statusPurpose: string; statusListIndex: string; statusListCredential: string }
    | undefined;
  if (!status) return fail('no credentialStatus');
  if (status.type !== 'BitstringStatusListEntry' || status.statusPurpose !== 'revocation')
    return fail(`status type ${status.type}`);
  const listJwt = (await fetchUrl(status.statusListCredential, 'application/vc+jwt')).body;
  const listHeader = decodeProtectedHeader(listJwt);
  const listKey = (await fetchUrl(String(listHeader.kid))).json() as JWK;
  const list = (await jwtVerify(listJwt, await importJWK(listKey, listHeader.alg))).payload as {
    issuer: { id: string } | string;
    credentialSubject: { encodedList: string; statusPurpose: string };
  };
  const listIssuer = typeof list.issuer === 'string' ? list.issuer : list.issuer.id;
  if (listIssuer !== (c.issuer as { id: string }).id) return fail('status list from another issuer');
  const encoded = list.credentialSubject.encodedList;
  if (!encoded.startsWith('u')) return fail('encodedList is not multibase base64url');
  const bits = gunzipSync(Buffer.from(encoded.slice(1), 'base64url'));
  if (bits.length < 16 * 1024) return fail('status list shorter than 131,072 entries');
  const index = Number(status.statusListIndex);
  const revoked = ((bits[index >> 3] as number) >> (7 - (index & 7))) & 1;
  return { valid: true, revoked: revoked === 1 };
}

const credentialOf = async (lessonId: string) => {
  const res = await get(t.app, `/api/lessons/${lessonId}/credential`, anna);
  expect(res.statusCode).toBe(200);
  return res.body;
};

describe('an outside OB 3.0 verifier (§8)', () => {
  it('accepts the credential: ES256, a kid that is one JWK, sub = credentialSubject.id, a status', async () => {
    const jwt = await credentialOf(cert.ended);
    expect(await verifyOb3(jwt)).toEqual({ valid: true, revoked: false });
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'JWT' });
    const subject = decodeJwt(jwt).sub as string;
    expect(subject).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    // The same learner has the same subject id on their other credential of this tenant.
    expect(decodeJwt(await credentialOf(cert.byType)).sub).toBe(subject);
  });

  it('serves one signed credential per achievement, the JSON form being exactly what was signed', async () => {
    const first = await credentialOf(cert.ended);
    expect(await credentialOf(cert.ended)).toBe(first);
    const res = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna, undefined, {
      headers: { accept: 'application/json' },
    });
    const body = res.json() as { credential: Record<string, unknown>; jwt: string };
    expect(body.jwt).toBe(first);
    // The JSON form is the credential with its embedded proof (issue 39): the JWT's payload
    // without the JWT's own claims, which repeat its members.
    const { proof, ...signed } = body.credential;
    expect(proof).toMatchObject({ type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022' });
    const { iss, sub, jti, nbf, iat, ...payload } = decodeJwt(first);
    expect([iss, sub, jti, nbf, iat].every((claim) => claim !== undefined)).toBe(true);
    expect(signed).toEqual(payload);
  });

  it('reads the issuer Profile and the verification page cross-origin', async () => {
    const payload = decodeJwt(await credentialOf(cert.ended));
    const issuer = (await fetchUrl((payload.issuer as { id: string }).id)).json() as { type: string[] };
    expect(issuer.type).toEqual(['Profile']);
    expect((await fetchUrl(String(payload.id), 'application/json')).json()).toMatchObject({
      status: 'valid',
    });
  });

  it('sees the credential revoked once the lesson is reset (a program reset), then valid again', async () => {
    const jwt = await credentialOf(cert.ended);
    await t.tdb.db
      .updateTable('lessons')
      .set({ certificationRef: null, endedAt: null, progress: null, state: 'AVAILABLE' })
      .where('id', '=', cert.ended)
      .execute();
    try {
      expect(await verifyOb3(jwt)).toEqual({ valid: true, revoked: true });
    } finally {
      await t.tdb.db
        .updateTable('lessons')
        .set({ certificationRef: cert.endedRef, endedAt: cert.endedAt, progress: 'COMPLETED', state: 'DONE' })
        .where('id', '=', cert.ended)
        .execute();
    }
    expect(await verifyOb3(jwt)).toEqual({ valid: true, revoked: false });
  });

  it("sees an administrator's revocation; a learner may not revoke", async () => {
    const jwt = await credentialOf(cert.byType);
    const id = /\/api\/certificates\/([^/]+)\/verify$/.exec(String(decodeJwt(jwt).id))?.[1] as string;
    const revoke = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/certificates/${id}/revoke`,
        headers: { host: 'alpha.test', authorization: `Bearer ${token}` },
      });
    expect((await revoke(anna)).statusCode).toBe(403);
    expect(await verifyOb3(jwt)).toEqual({ valid: true, revoked: false });
    const admin = await login(t.app, 'admin@example.test');
    expect((await revoke(admin)).statusCode).toBe(204);
    expect(await verifyOb3(jwt)).toEqual({ valid: true, revoked: true });
    expect((await revoke(admin)).statusCode).toBe(404);
  });
});

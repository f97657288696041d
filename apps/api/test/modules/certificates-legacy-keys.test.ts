import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import type { JSONWebKeySet } from 'jose';
import { seal } from '../../src/modules/certificates/keys';
import { ids } from '../helpers/fixtures';
import { get, JWT_SECRET, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { award, cert, seedCertificates } from './certificates-seed';

/**
 * Issue 28, decision 0041: a tenant whose active key is an Ed25519 key of before (decision 0012)
 * signs its next credential with a new ES256 key; the old key is retired but stays published
 * under the kid its credentials name, so they keep verifying.
 */
let t: TestContext;
let legacyJwt = '';
beforeAll(async () => {
  t = await startTestApp();
  await seedCertificates(t.tdb.db);
  const { publicKey, privateKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(pub);
  await t.tdb.db
    .insertInto('signingKeys')
    .values({
      id: kid,
      contextId: ids.ctxA,
      alg: 'EdDSA',
      publicJwk: JSON.stringify({ ...pub, kid, alg: 'EdDSA', use: 'sig' }),
      privateJwk: seal(JSON.stringify(await exportJWK(privateKey)), JWT_SECRET),
      createdAt: new Date(Date.now() - 86_400_000).toISOString(),
      retiredAt: null,
    })
    .execute();
  // A credential of before, as decision 0012 signed it.
  legacyJwt = await new SignJWT({ id: 'http://alpha.test/old', type: ['VerifiableCredential'] })
    .setProtectedHeader({
      alg: 'EdDSA',
      kid: `http://alpha.test/api/contexts/current/jwks.json#${kid}`,
      typ: 'vc+jwt',
      cty: 'vc',
    })
    .sign(privateKey);
});
afterAll(async () => {
  await t.close();
});

describe('keys of before', () => {
  it('are retired for ES256 on the next signature, and still verify what they signed', async () => {
    const anna = await login(t.app, 'anna@example.test');
    await award(t.app, cert.ended, anna);
    const res = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna);
    expect(res.statusCode).toBe(200);
    const keys = await t.tdb.db
      .selectFrom('signingKeys')
      .select(['alg', 'retiredAt'])
      .where('contextId', '=', ids.ctxA)
      .where('purpose', '=', 'vc-jwt')
      .orderBy('createdAt')
      .execute();
    expect(keys).toEqual([
      { alg: 'EdDSA', retiredAt: expect.any(String) },
      { alg: 'ES256', retiredAt: null },
    ]);
    const set = createLocalJWKSet(
      (await get(t.app, '/api/contexts/current/jwks.json')).json() as JSONWebKeySet,
    );
    await expect(jwtVerify(legacyJwt, set)).resolves.toBeTruthy();
    await expect(jwtVerify(res.body, set)).resolves.toBeTruthy();
  });
});

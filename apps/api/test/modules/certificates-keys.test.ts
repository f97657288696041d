import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { buildApp } from '../../src/app';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp, testEnv } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { award, cert, seedCertificates } from './certificates-seed';

/**
 * Guarantees across processes are decided by the database: two API instances on one database
 * signing a tenant's first credential at once make one key, and delivering one certificate at
 * once make one public id. A new server secret retires the key without breaking what it signed.
 */
let t: TestContext;
let second: FastifyInstance;
beforeAll(async () => {
  t = await startTestApp();
  await seedCertificates(t.tdb.db);
  // The other tenant allows certificates too (before its first request: the tenant is cached).
  await t.tdb.db
    .updateTable('contexts')
    .set({ settings: JSON.stringify({ requiredDatas: false, certification: { allowed: true } }) })
    .where('id', '=', ids.ctxB)
    .execute();
  second = await buildApp({
    env: testEnv(),
    db: t.tdb.db,
    dbKind: t.tdb.kind,
    filesDir: t.world.filesDir,
    logger: false,
  });
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await t.close();
});

async function jwks(app: FastifyInstance): Promise<JSONWebKeySet> {
  return (await get(app, '/api/contexts/current/jwks.json')).json() as JSONWebKeySet;
}

describe('two API instances on one database', () => {
  let first = '';
  it('make one signing key and one certificate id however the first awards interleave', async () => {
    const [a, b] = [await login(t.app, 'anna@example.test'), await login(second, 'anna@example.test')];
    const awards = await Promise.all(
      [0, 1, 2, 3].map((i) => award(i % 2 ? second : t.app, cert.ended, i % 2 ? b : a)),
    );
    expect(new Set(awards.map((x) => x.id)).size).toBe(1);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        get(i % 2 ? second : t.app, `/api/lessons/${cert.ended}/credential`, i % 2 ? b : a, undefined, {
          headers: { accept: 'application/json' },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const keys = await t.tdb.db
      .selectFrom('signingKeys')
      .select('id')
      .where('contextId', '=', ids.ctxA)
      .where('purpose', '=', 'vc-jwt')
      .execute();
    expect(keys).toHaveLength(1);
    const urls = new Set(answers.map((r) => (r.json() as { verificationUrl: string }).verificationUrl));
    expect(urls.size).toBe(1);
    const rows = await t.tdb.db
      .selectFrom('certificates')
      .select('id')
      .where('lessonId', '=', cert.ended)
      .execute();
    expect(rows).toHaveLength(1);
    const set = createLocalJWKSet(await jwks(second));
    for (const r of answers)
      await expect(jwtVerify((r.json() as { jwt: string }).jwt, set)).resolves.toBeTruthy();
    first = (answers[0]!.json() as { jwt: string }).jwt;
    // One signed credential for the achievement, whichever request signed it (issue 28).
    expect(new Set(answers.map((r) => (r.json() as { jwt: string }).jwt)).size).toBe(1);
  });

  it('a new server secret retires the key (still published) and signs with a new one', async () => {
    const rotated = await buildApp({
      env: testEnv({ JWT_SECRET: 'another-secret-another-secret-0123456789' }),
      db: t.tdb.db,
      dbKind: t.tdb.kind,
      filesDir: t.world.filesDir,
      logger: false,
    });
    await rotated.ready();
    try {
      const token = await login(rotated, 'anna@example.test');
      // A credential already signed is re-served as is (one per achievement, issue 28)…
      const again = await get(rotated, `/api/lessons/${cert.ended}/credential`, token);
      expect(again.body).toBe(first);
      // …and the next one is signed with the new key.
      await award(rotated, cert.byType, token);
      const res = await get(rotated, `/api/lessons/${cert.byType}/credential`, token);
      expect(res.statusCode).toBe(200);
      const published = await jwks(rotated);
      expect(published.keys).toHaveLength(2);
      const set = createLocalJWKSet(published);
      // Both the old and the new credential verify against the published set.
      await expect(jwtVerify(first, set)).resolves.toBeTruthy();
      await expect(jwtVerify(res.body, set)).resolves.toBeTruthy();
      const active = await t.tdb.db
        .selectFrom('signingKeys')
        .select('id')
        .where('contextId', '=', ids.ctxA)
        .where('purpose', '=', 'vc-jwt')
        .where('retiredAt', 'is', null)
        .execute();
      expect(active).toHaveLength(1);
    } finally {
      await rotated.close();
    }
  });
});

describe('another tenant that allows certificates', () => {
  it("never reaches this tenant's lessons, and publishes its own keys", async () => {
    const beta = await login(t.app, 'anna@example.test', hosts.beta);
    const items = await get(t.app, '/api/certification-items', beta, hosts.beta);
    expect(items.statusCode).toBe(200);
    expect((items.json() as { data: unknown[] }).data).toEqual([]);
    for (const doc of ['certificate.pdf', 'credential']) {
      expect((await get(t.app, `/api/lessons/${cert.ended}/${doc}`, beta, hosts.beta)).statusCode).toBe(404);
    }
    const alphaKids = (await jwks(t.app)).keys.map((k) => k.kid);
    const betaKeys = (
      await get(t.app, '/api/contexts/current/jwks.json', undefined, hosts.beta)
    ).json() as JSONWebKeySet;
    expect(betaKeys.keys.some((k) => alphaKids.includes(k.kid))).toBe(false);
  });

  it('is also found at /.well-known/jwks.json on the tenant host', async () => {
    const res = await get(t.app, '/.well-known/jwks.json', undefined, hosts.beta);
    expect(res.statusCode).toBe(308);
    expect(res.headers.location).toBe('/api/contexts/current/jwks.json');
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCredential } from '@digitalcredentials/verifier-core';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { get, login, testEnv } from '../helpers/app';
import { cert, certificateWorld } from './certificates-seed';

/**
 * Issue 39: a wallet's verifier accepts a Parcours credential. The Digital Credentials
 * Consortium's `verifier-core` (behind VerifierPlus and the Learner Credential Wallet) reads
 * embedded Data Integrity proofs only, so a JWT alone could not be verified at all.
 *
 * It runs offline: it brings its own bundled W3C and Open Badges contexts; what else it asks for
 * (the proof's key, the issuer Profile that controls it, the status list) goes through `fetch`,
 * which here answers our tenant's URLs from the app under test and refuses the rest of the world.
 */
const world = certificateWorld();
const asked: string[] = [];
/** The API process the verifier reaches: the test app, or another one on the same database. */
let serving: FastifyInstance | null = null;

/** `fetch` for the verifier: the tenant's host from the app (no token), nothing else. */
async function offlineFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  asked.push(url.href);
  if (url.host !== 'alpha.test') throw new TypeError(`offline: ${url.href}`);
  const res = await get(serving ?? world.t.app, `${url.pathname}${url.search}`, undefined, url.host, {
    headers: Object.fromEntries(request.headers),
  });
  return new Response(res.rawPayload, {
    status: res.statusCode,
    headers: { 'content-type': String(res.headers['content-type'] ?? '') },
  });
}

beforeAll(() => {
  vi.stubGlobal('fetch', offlineFetch);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

/** The credential as a learner downloads it for a wallet (OB 3.0 §5.3: JSON, `.json`). */
async function walletCredential(lessonId: string) {
  const res = await get(world.t.app, `/api/lessons/${lessonId}/credential`, world.anna, undefined, {
    headers: { accept: 'application/vc+ld+json' },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/vc+ld+json');
  expect(res.headers['content-disposition']).toMatch(/filename="[^"]+\.json"$/);
  return res.json() as Record<string, unknown> & { id: string; proof?: Record<string, unknown> };
}

type Step = { id: string; valid?: boolean; error?: { name?: string } };
const stepsOf = (result: { log?: Step[]; errors?: unknown[] }) => {
  expect(result.errors).toBeUndefined();
  return Object.fromEntries((result.log ?? []).map((s) => [s.id, s.valid ?? s.error?.name]));
};

async function verify(credential: Record<string, unknown>) {
  // No issuer registry: whether a registry lists the tenant is not the question here.
  return verifyCredential({ credential: credential as never, knownDIDRegistries: [] });
}

describe("DCC's verifier-core, offline", () => {
  it('verifies a freshly issued credential: signature, expiry and status', async () => {
    const credential = await walletCredential(cert.ended);
    expect(credential.proof).toMatchObject({
      type: 'DataIntegrityProof',
      cryptosuite: 'eddsa-rdfc-2022',
      proofPurpose: 'assertionMethod',
      verificationMethod: expect.stringMatching(
        /^http:\/\/alpha\.test\/api\/contexts\/current\/keys\/[\w-]+$/,
      ),
    });
    const result = await verify(credential);
    expect(stepsOf(result)).toMatchObject({
      valid_signature: true,
      expiration: true,
      revocation_status: true,
    });
    // The key, its controller (the issuer Profile) and the status list came from our server.
    expect(asked).toEqual(
      expect.arrayContaining([
        String(credential.proof?.verificationMethod),
        'http://alpha.test/api/contexts/current/issuer',
        'http://alpha.test/api/contexts/current/status/revocation',
      ]),
    );
  });

  it('refuses a credential changed after signing', async () => {
    const credential = await walletCredential(cert.ended);
    const forged = { ...credential, name: `${String(credential.name)} (with honours)` };
    const result = (await verify(forged)) as { errors?: { name: string }[] };
    expect(result.errors?.map((e) => e.name)).toEqual(['invalid_signature']);
    // The same document untouched still verifies: the failure is the change.
    expect(stepsOf(await verify(credential))).toMatchObject({ valid_signature: true });
  });

  it('reports the credential revoked once an administrator revokes it', async () => {
    const credential = await walletCredential(cert.byType);
    expect(stepsOf(await verify(credential))).toMatchObject({ revocation_status: true });
    const id = /\/api\/certificates\/([^/]+)\/verify$/.exec(credential.id)?.[1] as string;
    const admin = await login(world.t.app, 'admin@example.test');
    const revoke = await world.t.app.inject({
      method: 'POST',
      url: `/api/certificates/${id}/revoke`,
      headers: { host: 'alpha.test', authorization: `Bearer ${admin}` },
    });
    expect(revoke.statusCode).toBe(204);
    expect(stepsOf(await verify(credential))).toMatchObject({
      valid_signature: true,
      revocation_status: false,
    });
  });

  it('signs once per achievement: the wallet form is re-served as first signed', async () => {
    const first = await walletCredential(cert.ended);
    expect(await walletCredential(cert.ended)).toEqual(first);
  });

  it('still verifies what a retired key signed once a new server secret makes a new key', async () => {
    const credential = await walletCredential(cert.ended);
    serving = await buildApp({
      env: testEnv({ JWT_SECRET: 'another-secret-another-secret-0123456789' }),
      db: world.t.tdb.db,
      dbKind: world.t.tdb.kind,
      filesDir: world.t.world.filesDir,
      logger: false,
    });
    await serving.ready();
    try {
      // The status list is now signed with the new key; the credential names the old one, which
      // the Profile still lists (retired, never deleted).
      expect(stepsOf(await verify(credential))).toMatchObject({
        valid_signature: true,
        revocation_status: true,
      });
      const profile = (await get(serving, '/api/contexts/current/issuer')).json() as {
        assertionMethod: string[];
      };
      expect(profile.assertionMethod).toHaveLength(2);
      expect(profile.assertionMethod).toContain(credential.proof?.verificationMethod);
    } finally {
      await serving.close();
      serving = null;
    }
  });
});

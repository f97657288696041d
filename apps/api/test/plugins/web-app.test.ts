import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { inlineScriptHashes } from '../../src/plugins/web-app';
import { startTestApp, type TestContext } from '../helpers/app';
import { hosts } from '../helpers/fixtures';

/** index.html's start-up script (decision 0024) and a module script, which needs no hash. */
const INLINE = '<script>window.early = 1;</script>';
const MODULE = '<script type="module" crossorigin src="/assets/app-1234.js"></script>';

let app: FastifyInstance;
let ctx: TestContext;
let dist: string;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'parcours-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Parcours</title>${INLINE}${MODULE}`);
  writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'assets', 'app-1234.css'), 'body{margin:0}');
  writeFileSync(path.join(dist, 'assets', 'pdf.worker-1234.js'), 'onmessage = () => {}');
  writeFileSync(path.join(dist, 'assets', 'logo-1234.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  mkdirSync(path.join(dist, 'static', 'images', 'badges'), { recursive: true });
  writeFileSync(path.join(dist, 'static', 'images', 'badges', 'badge-level_gold.png'), 'png');
  ctx = await startTestApp({ WEB_DIST: dist });
  app = ctx.app;
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: hosts.alpha } });

describe('built web app on the same origin', () => {
  it('serves files, hashed assets cached for good, the rest revalidated', async () => {
    const asset = await get('/assets/app-1234.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const sw = await get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect((await get('/')).body).toContain('<title>Parcours</title>');
  });

  it('answers an unknown badge picture (any missing /static/ file) with 404, not the app’s HTML', async () => {
    expect((await get('/static/images/badges/badge-level_gold.png')).statusCode).toBe(200);
    for (const url of [
      '/static/images/badges/badge-nope_gold.png',
      '/static/images/badges/badge-level_gold_xl.png?v=1',
      '/static/anything',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(String(res.headers['content-type']), url).not.toContain('text/html');
    }
    // A client route still gets the app.
    expect((await get('/niveaux')).headers['content-type']).toContain('text/html');
  });

  it("allows index.html's own inline script by its hash, and no other inline script", async () => {
    const hash = `'sha256-${createHash('sha256').update('window.early = 1;').digest('base64')}'`;
    expect(inlineScriptHashes(dist)).toEqual([hash]);
    const csp = (await get('/')).headers['content-security-policy'];
    const scriptSrc = String(csp)
      .split(';')
      .find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe(`script-src 'self' ${hash}`);
    expect(inlineScriptHashes(path.join(dist, 'no-build-here'))).toEqual([]);
  });

  it('sends scripts and stylesheets only the headers a subresource uses; documents and workers keep them all', async () => {
    for (const url of ['/assets/app-1234.js', '/assets/app-1234.css', '/assets/app-1234.js?v=2']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['content-security-policy']).toBeUndefined();
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    // A worker takes its CSP from its script; an SVG can be opened as a document; a missing
    // asset path is answered with index.html; the API and the service worker are not subresources.
    for (const url of [
      '/assets/pdf.worker-1234.js',
      '/assets/logo-1234.svg',
      '/assets/gone-9999.js',
      '/sw.js',
      '/',
      '/login',
      '/api/contexts/current',
    ]) {
      const res = await get(url);
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('answers client-side routes with index.html', async () => {
    for (const url of ['/niveaux', '/session/abc/page/def', '/legal/mentions?x=1']) {
      const res = await get(url);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<title>Parcours</title>');
    }
  });

  it('keeps JSON:API 404 for unknown /api paths', async () => {
    const res = await get('/api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json().errors[0].code).toBe('NOT_FOUND');
  });
});

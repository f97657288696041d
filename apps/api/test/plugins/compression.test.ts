import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { acceptedEncodings } from '../../src/plugins/web-app';
import { login, startTestApp, type TestContext } from '../helpers/app';
import { hosts, ids } from '../helpers/fixtures';

/** What the build writes: the file and, beside it, its brotli and gzip copies (vite-precompress.ts). */
function writeWithCopies(file: string, text: string): Buffer {
  const bytes = Buffer.from(text);
  writeFileSync(file, bytes);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes));
  writeFileSync(`${file}.gz`, gzipSync(bytes));
  return bytes;
}

function decoded(res: LightMyRequestResponse): Buffer {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(raw);
    case 'gzip':
      return gunzipSync(raw);
    case undefined:
      return raw;
    default:
      throw new Error(`unexpected encoding ${String(res.headers['content-encoding'])}`);
  }
}

let app: FastifyInstance;
let ctx: TestContext;
let dist: string;
let token: string;
let script: Buffer;
let indexHtml: Buffer;
beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'parcours-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  const lines = Array.from({ length: 200 }, (_, i) => `console.log("line ${i} of the entry script");`);
  script = writeWithCopies(path.join(dist, 'assets', 'index-abc123.js'), lines.join('\n'));
  indexHtml = writeWithCopies(
    path.join(dist, 'index.html'),
    `<!doctype html><title>Parcours</title>${'<link rel="modulepreload" href="/assets/x.js">'.repeat(40)}`,
  );
  // A small file the build left alone: no copies beside it.
  writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
  ctx = await startTestApp({ WEB_DIST: dist });
  app = ctx.app;
  token = await login(app, 'anna@example.test');
});
afterAll(async () => {
  await ctx?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers: { host: hosts.alpha, ...headers } });
// Large enough to pass the 1 kB threshold: the learner's memberships with their class tree.
const API_URL = '/api/class-users?include=class.classPrograms.program.programCourses.course,class.teachers';
const apiGet = (headers: Record<string, string> = {}) =>
  get(API_URL, { authorization: `Bearer ${token}`, ...headers });

describe('static files', () => {
  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
  ])('Accept-Encoding "%s" gets the %s copy, which decodes to the file', async (accept, expected) => {
    const res = await get('/assets/index-abc123.js', { 'accept-encoding': accept });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(expected);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.rawPayload.length).toBeLessThan(script.length);
    expect(decoded(res).equals(script)).toBe(true);
  });

  it('sends plain bytes to a client without Accept-Encoding', async () => {
    const res = await get('/assets/index-abc123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(script)).toBe(true);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
  });

  it('sends a file without copies plain, whatever the client accepts', async () => {
    const res = await get('/robots.txt', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('User-agent: *');
  });

  it('compresses index.html, at / and as the fallback of client-side routes', async () => {
    for (const url of ['/', '/session/abc/page/def']) {
      const res = await get(url, { 'accept-encoding': 'gzip, br' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(decoded(res).equals(indexHtml)).toBe(true);
      const plain = await get(url);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.equals(indexHtml)).toBe(true);
    }
  });
});

describe('API answers', () => {
  it.each(['br', 'gzip'])(
    'are compressed with %s above the threshold and decode to the plain answer',
    async (encoding) => {
      const plain = await apiGet();
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(1024);

      const res = await apiGet({ 'accept-encoding': encoding });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(decoded(res).equals(plain.rawPayload)).toBe(true);
    },
  );

  it("compresses an answer the cache does not keep (an administrator's read of a learner's lessons)", async () => {
    // The cached reads choose their encoding themselves (compress: false on their routes).
    const admin = await login(app, 'admin@example.test');
    const url = `/api/lessons?filter[userId]=${ids.learnerA}&include=course`;
    const plain = await get(url, { authorization: `Bearer ${admin}` });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const res = await get(url, { authorization: `Bearer ${admin}`, 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(decoded(res).equals(plain.rawPayload)).toBe(true);
  });

  it('leaves small answers and errors below the threshold plain', async () => {
    const res = await get('/api/contexts/current', { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    const missing = await get('/api/nothing-here', { 'accept-encoding': 'br, gzip' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].code).toBe('NOT_FOUND');
  });
});

describe('acceptedEncodings', () => {
  it.each([
    [undefined, []],
    ['', []],
    ['identity', []],
    ['gzip', ['gzip']],
    ['br, gzip', ['br', 'gzip']],
    ['BR;q=0.5, gzip;q=0', ['br']],
    ['*', ['br', 'gzip']],
    ['*, br;q=0', ['gzip']],
  ])('%j accepts %j', (header, expected) => {
    expect([...acceptedEncodings(header)]).toEqual(expected);
  });
});

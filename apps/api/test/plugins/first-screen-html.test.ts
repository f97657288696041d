import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextDataBlock, withContext } from '../../src/plugins/context-in-html';
import { startWithWebBuild } from '../helpers/web-build';
import { hosts } from '../helpers/fixtures';

/**
 * Issue 11: every page carries the tenant's `contexts/current` answer, and a signed-in route's
 * page its first screen's stylesheets, so the first screen of a slow phone asks for neither.
 */
const SCRIPT = 'window.early = 1;';
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script>${SCRIPT}</script>
    <style>.entry{}</style>
    <link rel="stylesheet" href="/assets/index-1.css" disabled />
  </head>
  <body>
    <div id="root"></div>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </body>
</html>`;

const DATA_BLOCK = /<script type="application\/json" id="parcours-context">(.*?)<\/script>/;

let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startWithWebBuild({
    'dist/index.html': INDEX,
    'dist/assets/index-1.js': 'console.log(1)',
    'dist/assets/Home-1.css': '.home{color:green}\n',
    'dist/assets/shared-1.css': '.shared{color:blue}',
    'dist/assets/Player-1.css': '.player{color:red}',
    'dist/.vite/first-screens.json': JSON.stringify({
      routes: [
        { path: '^\\/$', css: ['assets/Home-1.css', 'assets/shared-1.css'] },
        {
          path: '^\\/session\\/[^/]+\\/?$',
          css: ['assets/Player-1.css', 'assets/shared-1.css', '../secret.css'],
        },
      ],
    }),
  });
  app = started.ctx.app;
  close = started.close;
});
afterAll(async () => {
  await close?.();
});

const get = (url: string, host: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: { host, ...(encoding ? { 'accept-encoding': encoding } : {}) } });

describe("the tenant's context in every page", () => {
  it('is the answer of GET /api/contexts/current for the same Host, before the inline script', async () => {
    for (const host of [hosts.alpha, hosts.beta]) {
      for (const url of ['/', '/niveaux', '/session/abc']) {
        const page = await get(url, host);
        expect(page.statusCode).toBe(200);
        const api = await get('/api/contexts/current', host);
        const block = DATA_BLOCK.exec(page.body);
        expect(block, `${host}${url}`).not.toBeNull();
        expect(JSON.parse(block![1]!)).toEqual(api.json());
        expect(page.body.indexOf(block![0])).toBeLessThan(page.body.indexOf(`<script>${SCRIPT}`));
      }
    }
  });

  it('decodes from brotli and gzip to the same page, and is plain without Accept-Encoding', async () => {
    const plain = await get('/', hosts.alpha);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const br = await get('/', hosts.alpha, 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await get('/', hosts.alpha, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('is the generic tenant where the Host names none, as the API answers there', async () => {
    const page = await get('/', hosts.unknown);
    expect(page.statusCode).toBe(200);
    const api = await get('/api/contexts/current', hosts.unknown);
    expect(JSON.parse(DATA_BLOCK.exec(page.body)![1]!)).toEqual(api.json());
  });

  it('cannot be closed or commented out by tenant text', () => {
    const document = { data: { attributes: { name: '</script><script>alert(1)</script><!--' } } };
    const block = contextDataBlock(document);
    expect(block.slice(0, -'</script>'.length)).not.toMatch(/<\/script|<!--/i);
    expect(JSON.parse(DATA_BLOCK.exec(block)![1]!)).toEqual(document);
    // Without the marker the page is left as it is.
    expect(withContext('<html><head></head></html>', document)).toBe('<html><head></head></html>');
  });
});

describe("a signed-in route's first-screen styles in its page", () => {
  it('inlines them after the entry styles and names each with a disabled link before the inline script', async () => {
    const home = (await get('/', hosts.alpha)).body;
    expect(home).toContain('<style>.home{color:green}\n.shared{color:blue}</style>');
    expect(home.indexOf('.home{')).toBeGreaterThan(home.indexOf('<style>.entry{}</style>'));
    for (const href of ['/assets/Home-1.css', '/assets/shared-1.css']) {
      const link = `<link rel="stylesheet" href="${href}" disabled />`;
      expect(home).toContain(link);
      expect(home.indexOf(link)).toBeLessThan(home.indexOf(`<script>${SCRIPT}`));
    }
    expect(home).not.toContain('.player');
  });

  it("gives each route its own, other pages none, and never reads outside the build's assets", async () => {
    const player = (await get('/session/abc', hosts.alpha)).body;
    expect(player).toContain('<style>.player{color:red}\n.shared{color:blue}</style>');
    expect(player).not.toContain('secret');
    expect(player).not.toContain('.home{');
    const other = (await get('/niveaux', hosts.alpha)).body;
    expect(other).not.toMatch(/\.home\{|\.player\{|\.shared\{/);
  });
});

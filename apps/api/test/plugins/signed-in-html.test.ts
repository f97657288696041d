import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { STATE_ELEMENT_ID } from '../../src/plugins/signed-in-html';
import { login } from '../helpers/app';
import { hosts, ids } from '../helpers/fixtures';
import { startWithWebBuild } from '../helpers/web-build';
import type { TestContext } from '../helpers/app';

/** Decision 0046: the home and a player page drawn for the learner of the HTML session cookie. */
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <title>Espace Apprenant</title>
  </head>
  <body>
    <div id="root">
      <div class="boot"><div class="boot__dot"></div></div>
    </div>
    <noscript>Parcours needs JavaScript.</noscript>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </body>
</html>`;

// Stands for dist-server/server.js: reads through the fetch it is given, as the app's screens do.
const RENDERER = `
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
export async function renderSignIn() { return null; }
export async function renderSignedIn({ tenant, lang, url, fetch }) {
  if (url.startsWith('/session/writes')) await fetch('/api/users/login', { method: 'POST' });
  if (url.startsWith('/session/outside')) await fetch('http://elsewhere.example/api/users/me');
  if (url.startsWith('/session/not-drawn')) return { refused: 'page' };
  const me = await fetch('/api/users/me');
  if (me.status === 401) return { refused: 'token' };
  const user = await me.json();
  const lessonId = url.startsWith('/session/') ? url.split('/')[2] : null;
  const lesson = lessonId ? await fetch('/api/lessons/' + lessonId) : null;
  return {
    body: '<h1 data-lang="' + lang + '">' + esc(user.profile.displayName) + '</h1>' +
      (lesson ? '<p data-lesson-status="' + lesson.status + '"></p>' : ''),
    title: tenant.attributes.name + ' – home',
    palette: { '--color-primary': '#123456' },
    state: JSON.stringify({ me: user, note: '</script><b>' }),
  };
}`;

let t: TestContext;
let close: () => Promise<void>;
let tokenA: string;

beforeAll(async () => {
  const started = await startWithWebBuild({
    'dist/index.html': INDEX,
    'dist/assets/index-1.js': 'console.log(1)',
    'dist-server/server.js': RENDERER,
  });
  t = started.ctx;
  close = started.close;
  tokenA = await login(t.app, 'anna@example.test');
});
afterAll(async () => {
  await close?.();
});

const page = (url: string, cookie?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: {
      host: hosts.alpha,
      'accept-language': 'fr-FR,fr;q=0.9',
      'accept-encoding': 'br',
      ...(cookie ? { cookie } : {}),
    },
  });
const text = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) =>
  res.headers['content-encoding'] === 'br'
    ? brotliDecompressSync(res.rawPayload).toString('utf8')
    : res.rawPayload.toString('utf8');
const cookieOf = (token: string) => `${HTML_SESSION_COOKIE}=${token}`;

describe('signed-in first screens drawn on the server', () => {
  it("draws the home for the cookie's learner, private and never cached", async () => {
    const res = await page('/', cookieOf(tokenA));
    expect(res.statusCode).toBe(200);
    const html = text(res);
    expect(html).toContain('<div id="root" data-prerendered="signed-in"><h1 data-lang="fr">Anna');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<style>html:root{--color-primary: #123456}</style>');
    expect(html).toContain('<title>Alpha Academy – home</title>');
    expect(html).not.toContain('boot__dot');
    // Painted before its code is asked for (decision 0054): the entry script is inert.
    expect(html).toContain('<meta name="parcours-paint-first" />');
    expect(html).toContain('<script type="parcours/after-paint" data-src="/assets/index-1.js"></script>');
    expect(html).not.toContain('<script type="module"');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(String(res.headers.vary)).toContain('Cookie');
    // The data block: learner text cannot close the element.
    const block = new RegExp(`<script type="application/json" id="${STATE_ELEMENT_ID}">(.*?)</script>`).exec(
      html,
    );
    expect(block).not.toBeNull();
    expect(block![1]).not.toContain('<');
    expect(JSON.parse(block![1]!)).toMatchObject({ note: '</script><b>' });
  });

  it('draws a player page with what the API answers that learner: another learner’s lesson is refused', async () => {
    const own = text(await page(`/session/${ids.lessonA1}`, cookieOf(tokenA)));
    expect(own).toContain('data-lesson-status="200"');
    const other = text(await page(`/session/${ids.lessonB1}`, cookieOf(tokenA)));
    expect(other).toMatch(/data-lesson-status="40[34]"/);
  });

  it('without the cookie, or on another route, serves the page every browser gets', async () => {
    for (const res of [await page('/'), await page('/niveaux', cookieOf(tokenA))]) {
      expect(res.statusCode).toBe(200);
      const html = text(res);
      expect(html).not.toContain('data-prerendered');
      expect(html).toContain('boot__dot');
      // Nothing drawn: the code is asked for at once, as the build wrote it.
      expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
      expect(html).not.toContain('parcours-paint-first');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('reads the `__Host-` cookie alone: not the old name, not a name sent twice (a shadow from another origin)', async () => {
    const tokenB = await login(t.app, 'bob@example.test');
    const drawnFor = async (cookie: string) => {
      const html = text(await page('/', cookie));
      return html.includes('data-prerendered') ? /<h1[^>]*>([^<]*)/.exec(html)?.[1] : null;
    };
    expect(HTML_SESSION_COOKIE).toBe('__Host-parcours_html');
    // The name before decision 0057, which any origin of the host may have set with any path.
    expect(await drawnFor(`parcours_html=${tokenB}`)).toBeNull();
    expect(await drawnFor(`parcours_html=${tokenB}; ${cookieOf(tokenA)}`)).toMatch(/^Anna/);
    // Two of the name: a path-scoped shadow is sent first; neither is taken.
    expect(await drawnFor(`${cookieOf(tokenB)}; ${cookieOf(tokenA)}`)).toBeNull();
  });

  it('ends the cookie of a token the API refuses, and serves the plain page', async () => {
    const res = await page('/', cookieOf('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad-signature'));
    expect(res.statusCode).toBe(200);
    expect(text(res)).not.toContain('data-prerendered');
    expect(String(res.headers['set-cookie'])).toMatch(
      new RegExp(`^${HTML_SESSION_COOKIE}=;.*Max-Age=0`, 'i'),
    );
  });

  it('lets the renderer read the API only: a write or another host fails the render, not the page', async () => {
    for (const url of ['/session/writes', '/session/outside', '/session/not-drawn']) {
      const res = await page(url, cookieOf(tokenA));
      expect(res.statusCode).toBe(200);
      expect(text(res)).not.toContain('data-prerendered');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});

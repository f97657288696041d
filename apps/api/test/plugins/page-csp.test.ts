import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTML_SESSION_COOKIE } from '../../src/plugins/html-session';
import { LIBRARY_STYLE_TEXTS, styleTextSources, withStyleSources } from '../../src/plugins/page-styles';
import { login } from '../helpers/app';
import { hosts } from '../helpers/fixtures';
import { startWithWebBuild } from '../helpers/web-build';
import type { TestContext } from '../helpers/app';

/**
 * Issue 29 item 8, decision 0053: no inline style but by hash. Every HTML page the server sends
 * (index.html as a static file and as the tenant's page, /login drawn, the home and a player page
 * drawn for the learner, the certificate verification page) carries no `style` attribute, and its
 * `style-src` is 'self' plus the hashes of exactly its own `<style>` elements, and of the one a
 * library adds while the page runs (page-styles.ts LIBRARY_STYLE_TEXTS); never 'unsafe-inline'.
 */
const LIBRARY = styleTextSources(LIBRARY_STYLE_TEXTS);
const BOOT_CSS = '\n      html { color: #1a1f2b; }\n      .boot { display: grid; }\n    ';
const ENTRY_CSS = '.entry{color:red}';
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script>window.early = 1;</script>
    <title>Espace Apprenant</title>
    <style>${BOOT_CSS}</style>
    <style>${ENTRY_CSS}</style>
  </head>
  <body>
    <div id="root">
      <div class="boot"><div class="boot__dot"></div></div>
    </div>
    <noscript>Parcours needs JavaScript.</noscript>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </body>
</html>`;

// Stands for dist-server/server.js: style props as react-dom/server writes them.
const RENDERER = `
export async function renderSignIn({ tenant }) {
  return {
    body: '<h1>' + tenant.attributes.name + '</h1><span style="border:0;clip:rect(0 0 0 0);position:absolute"><input name="x"/></span>',
    title: 'Connexion',
    palette: { '--color-primary': '#123456' },
  };
}
export async function renderSignedIn({ fetch }) {
  const me = await fetch('/api/users/me');
  if (me.status === 401) return { refused: 'token' };
  return {
    body: '<div role="progressbar"><span class="progress__fill" style="width:40%"></span></div>' +
      '<input style="width:min(100%, 240px)"/><i style="font-family:&quot;A&quot;"></i>',
    title: 'Accueil',
    palette: { '--color-primary': '#654321' },
    state: JSON.stringify({ me: await me.json() }),
  };
}`;

let t: TestContext;
let close: () => Promise<void>;
let cookie: string;

beforeAll(async () => {
  const started = await startWithWebBuild({
    'dist/index.html': INDEX,
    'dist/assets/index-1.js': 'console.log(1)',
    'dist/assets/LoginPage-1.css': '.login{color:blue}',
    'dist/assets/HomePage-1.css': '.home{color:green}',
    'dist/.vite/manifest.json': JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true },
      'src/features/auth/components/LoginPage.tsx': {
        file: 'assets/LoginPage-1.js',
        imports: ['index.html'],
        css: ['assets/LoginPage-1.css'],
      },
    }),
    'dist/.vite/first-screens.json': JSON.stringify({
      routes: [{ path: '^\\/$', css: ['assets/HomePage-1.css'] }],
    }),
    'dist-server/server.js': RENDERER,
  });
  t = started.ctx;
  close = started.close;
  cookie = `${HTML_SESSION_COOKIE}=${await login(t.app, 'anna@example.test')}`;
});
afterAll(async () => {
  await close?.();
});

const sha = (css: string) => `'sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}'`;

async function fetchPage(url: string, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'GET',
    url,
    headers: { host: hosts.alpha, 'accept-language': 'fr', 'accept-encoding': 'br', ...headers },
  });
  const html =
    res.headers['content-encoding'] === 'br'
      ? brotliDecompressSync(res.rawPayload).toString('utf8')
      : res.rawPayload.toString('utf8');
  const styleSrc = String(res.headers['content-security-policy'])
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('style-src '));
  const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  return { res, html, styleSrc: styleSrc?.split(/\s+/).slice(1) ?? [], styles };
}

describe('style-src without unsafe-inline (decision 0053)', () => {
  it("every response allows index.html's own <style> elements, by hash, and nothing else inline", async () => {
    for (const url of ['/api/contexts/current', '/index.html']) {
      const { res, styleSrc } = await fetchPage(url);
      expect(res.statusCode, url).toBe(200);
      expect(styleSrc, url).toEqual(["'self'", sha(BOOT_CSS), sha(ENTRY_CSS), ...LIBRARY]);
    }
  });

  it.each([
    ['the tenant page', '/niveaux', false],
    ['the sign-in screen', '/login', false],
    ['the home drawn for the learner', '/', true],
    ['a player page drawn for the learner', '/session/abc', true],
  ])('%s: no style attribute, and each <style> allowed by its hash', async (_name, url, signedIn) => {
    const { res, html, styleSrc, styles } = await fetchPage(url, signedIn ? { cookie } : {});
    expect(res.statusCode).toBe(200);
    expect(html).not.toMatch(/<[a-zA-Z][^>]*\sstyle\s*=/);
    expect(styleSrc).not.toContain("'unsafe-inline'");
    expect(styleSrc).not.toContain("'unsafe-hashes'");
    expect(styles.length).toBeGreaterThanOrEqual(2);
    expect(styleSrc.slice(1).sort()).toEqual([...new Set([...styles.map(sha), ...LIBRARY])].sort());
    expect(styleSrc[0]).toBe("'self'");
  });

  it('draws the sign-in screen as its styles did, from rules the app then moves back onto the elements', async () => {
    const { html } = await fetchPage('/login');
    expect(html).toContain('<style>.login{color:blue}</style>');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain(
      '<span data-parcours-style="border:0;clip:rect(0 0 0 0);position:absolute"><input name="x"/></span>',
    );
    expect(html).toContain(
      '<style>html:root{--color-primary: #123456}\n' +
        '[data-parcours-style="border:0;clip:rect(0 0 0 0);position:absolute"]' +
        '{border:0 !important;clip:rect(0 0 0 0) !important;position:absolute !important}</style>',
    );
  });

  it("draws a signed-in screen's style props the same way; a text a rule cannot hold stays for the app", async () => {
    const { html } = await fetchPage('/', { cookie });
    expect(html).toContain('<style>.home{color:green}</style>');
    expect(html).toContain('<span class="progress__fill" data-parcours-style="width:40%"></span>');
    expect(html).toContain('[data-parcours-style="width:40%"]{width:40% !important}');
    expect(html).toContain('{width:min(100%, 240px) !important}');
    expect(html).toContain('<i data-parcours-style="font-family:&quot;A&quot;"></i>');
    expect(html).not.toContain('{font-family');
    expect(html).toContain('html:root{--color-primary: #654321}');
  });

  it("the certificate verification page's own <style> is allowed by its hash", async () => {
    const { res, html, styleSrc, styles } = await fetchPage('/api/certificates/no-such-id/verify', {
      accept: 'text/html',
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(styles).toHaveLength(1);
    expect(styleSrc).toContain(sha(styles[0]!));
    expect(styleSrc).not.toContain("'unsafe-inline'");
    expect(html).not.toMatch(/<[a-zA-Z][^>]*\sstyle\s*=/);
  });
});

describe('withStyleSources', () => {
  it.each<[string, string[], string]>([
    [
      "default-src 'self';style-src 'self';img-src 'self'",
      ["'sha256-a'"],
      "default-src 'self';style-src 'self' 'sha256-a';img-src 'self'",
    ],
    ["style-src 'self' 'sha256-a'", ["'sha256-a'", "'sha256-b'"], "style-src 'self' 'sha256-a' 'sha256-b'"],
    ["default-src 'self'", ["'sha256-a'"], "default-src 'self'"],
    ["style-src 'self'", [], "style-src 'self'"],
  ])('%s + %j', (csp, sources, expected) => {
    expect(withStyleSources(csp, sources)).toBe(expected);
  });
});

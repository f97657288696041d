import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredLanguages, signInLanguage, signInPage } from '../../src/plugins/sign-in-html';
import { startWithWebBuild } from '../helpers/web-build';
import { hosts } from '../helpers/fixtures';

/** Decision 0026: /login carries the sign-in screen the web build's renderer draws. */
const SCRIPT = 'window.early = 1;';
const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <script>${SCRIPT}</script>
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

// Stands for dist-server/server.js: draws what it is given, escaping as render-to-string does.
const RENDERER = `
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => '&#' + c.charCodeAt(0) + ';');
export async function renderSignIn({ tenant, lang, search }) {
  if (search.includes('mode=recover')) return null;
  const name = tenant.attributes.name;
  return {
    body: '<h1 data-lang="' + lang + '">' + esc(name) + '</h1>' + (search ? '<p>' + esc(search) + '</p>' : ''),
    title: name + ' – ' + (lang === 'fr' ? 'Connexion' : 'Sign in'),
    palette: { '--color-primary': '#123456', 'bad name': 'x' },
  };
}`;

let app: FastifyInstance;
let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startWithWebBuild({
    'dist/index.html': INDEX,
    'dist/assets/index-1.js': 'console.log(1)',
    'dist/assets/index-1.css': '.entry{}',
    'dist/assets/LoginPage-1.css': '.login{color:red}',
    'dist/.vite/manifest.json': JSON.stringify({
      'index.html': { file: 'assets/index-1.js', isEntry: true, css: ['assets/index-1.css'] },
      'src/features/auth/components/LoginPage.tsx': {
        file: 'assets/LoginPage-1.js',
        imports: ['index.html'],
        css: ['assets/LoginPage-1.css'],
      },
    }),
    'dist-server/server.js': RENDERER,
  });
  app = started.ctx.app;
  close = started.close;
});
afterAll(async () => {
  await close?.();
});

const get = (url: string, host: string, language = 'fr-FR,fr;q=0.9,en;q=0.8') =>
  app.inject({ method: 'GET', url, headers: { host, 'accept-language': language } });

describe('/login with the sign-in screen in the HTML', () => {
  it("draws the Host's tenant in the browser's language", async () => {
    const fr = await get('/login', hosts.alpha);
    expect(fr.statusCode).toBe(200);
    expect(fr.body).toContain('<html lang="fr">');
    // The tenant's colours as a rule, not a style attribute the CSP would block (decision 0053).
    expect(fr.body).toContain('<style>html:root{--color-primary: #123456}</style>');
    expect(fr.body).toContain('<title>Alpha Academy – Connexion</title>');
    expect(fr.body).toContain(
      '<div id="root" data-prerendered="sign-in"><h1 data-lang="fr">Alpha Academy</h1></div>',
    );
    expect(fr.body).not.toContain('boot__dot');
    expect(fr.body).toContain('<style>.login{color:red}</style>');
    // Named by a disabled link before the inline script: the app fetches none of it again.
    const link = '<link rel="stylesheet" href="/assets/LoginPage-1.css" disabled />';
    expect(fr.body).toContain(link);
    expect(fr.body.indexOf(link)).toBeLessThan(fr.body.indexOf(`<script>${SCRIPT}`));
    expect(fr.body).not.toContain('.entry{}');
    expect(fr.headers.vary).toBe('Accept-Encoding, Accept-Language');

    const en = await get('/login', hosts.beta, 'en-GB,en;q=0.9,fr;q=0.5');
    expect(en.body).toContain('<html lang="en"');
    expect(en.body).toContain('<h1 data-lang="en">Beta School</h1>');
    expect(en.body).toContain('<title>Beta School – Sign in</title>');
  });

  it('escapes what it writes into the page, and keeps only what the screen reads of the address', async () => {
    const res = await get('/login?sso=%3Cscript%3Ealert(1)%3C%2Fscript%3E&utm=x', hosts.alpha);
    expect(res.body).not.toContain('<script>alert');
    expect(res.body).not.toContain('utm');
    expect(res.body).not.toContain('bad name');
    // The title is the tenant's name: text, never markup.
    const page = signInPage(
      INDEX,
      { body: '', title: '</title><script>x()</script>', palette: { '--color-primary': '"><script>' } },
      'fr',
      '',
    );
    expect(page).toContain('<title>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>');
    // A colour that could leave its rule is dropped.
    expect(page).not.toContain('--color-primary');
    expect(page).not.toContain('"><script>');
  });

  it("keeps index.html's script, so the CSP hash still allows it", async () => {
    const res = await get('/login', hosts.alpha);
    const hash = `'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`;
    expect(res.body).toContain(`<script>${SCRIPT}</script>`);
    const scriptSrc = String(res.headers['content-security-policy'])
      .split(';')
      .find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe(`script-src 'self' ${hash}`);
  });

  it('sends the brotli copy of that page when accepted', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/login',
      headers: { host: hosts.alpha, 'accept-language': 'fr', 'accept-encoding': 'br' },
    });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('Alpha Academy</h1>');
  });

  it("other paths, and what the renderer does not draw, get index.html with only the tenant's context", async () => {
    for (const url of ['/', '/niveaux', '/login?mode=recover']) {
      const res = await get(url, hosts.alpha);
      expect(res.statusCode).toBe(200);
      expect(
        res.body.replace(/\n {4}<script type="application\/json" id="parcours-context">.*?<\/script>/, ''),
      ).toBe(INDEX);
      expect(res.body).toContain('"name":"Alpha Academy"');
      if (!url.startsWith('/login')) expect(res.headers.vary).toBe('Accept-Encoding');
    }
  });

  it('carries the context in the drawn sign-in page too', async () => {
    const res = await get('/login', hosts.beta);
    expect(res.body).toContain('<script type="application/json" id="parcours-context">');
    expect(res.body).toContain('"name":"Beta School"');
  });
});

describe('the language of the sign-in HTML', () => {
  it('follows Accept-Language as the app follows navigator.languages', () => {
    expect(preferredLanguages('en;q=0.5, fr-CA, de;q=0.9')).toEqual(['fr-CA', 'de', 'en']);
    expect(signInLanguage('de-DE,en;q=0.7,fr;q=0.9')).toBe('fr');
    expect(signInLanguage('de-DE')).toBe('en');
    expect(signInLanguage(undefined)).toBe('en');
    expect(signInLanguage('fr;q=0, en')).toBe('en');
  });
});

/**
 * `/login` served with the sign-in screen already in the HTML (issue 11, decision 0026): the web
 * build's server renderer (`apps/web/src/prerender/sign-in.tsx`, built into `dist-server/` beside
 * `dist/`) renders the app's own components for the tenant of the Host and the language the
 * browser asks for; this module puts that markup, the tenant's colours, the page title and the
 * screen's stylesheets into the built index.html. Anything missing (no server build, a tenant the
 * renderer does not draw) means the plain index.html, as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { pickLocale } from '@parcours/domain/locale';
import type { Locale } from '@parcours/domain/entities';
import type { SignedInRenderer } from './signed-in-html';
import { drawnScreen } from './page-styles';
import { escapeHtml } from '../lib/html';

/** What apps/web/src/prerender/sign-in.tsx exports. */
export interface SignInMarkup {
  body: string;
  title: string;
  palette: Record<string, string>;
}
export interface SignInRenderer {
  renderSignIn(request: { tenant: unknown; lang: Locale; search: string }): Promise<SignInMarkup | null>;
}

/** The module the web build wrote for the server, or null (no server build: plain index.html). */
export async function loadSignInRenderer(
  webDist: string,
): Promise<(SignInRenderer & Partial<SignedInRenderer>) | null> {
  const file = path.join(webDist, '..', 'dist-server', 'server.js');
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as Partial<SignInRenderer>;
  return typeof module.renderSignIn === 'function' ? (module as SignInRenderer) : null;
}

const SIGN_IN_MODULE = 'src/features/auth/components/LoginPage.tsx';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/**
 * The sign-in screen's own stylesheets (its chunk and the chunks it imports, minus the entry's,
 * which index.html already inlines), read from the build's manifest: they are inlined with the
 * markup, or the screen would paint unstyled until its chunk came. `files` are their names, for
 * the disabled links that keep the app from fetching them again (screen-styles.ts).
 */
export function signInStyles(webDist: string): { css: string; files: string[] } {
  const file = path.join(webDist, '.vite', 'manifest.json');
  if (!existsSync(file)) return { css: '', files: [] };
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
  const closure = (start: string[]) => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      manifest[key].imports?.forEach(visit);
    };
    start.forEach(visit);
    return seen;
  };
  const entries = closure(Object.keys(manifest).filter((key) => manifest[key]?.isEntry));
  const entryCss = new Set([...entries].flatMap((key) => manifest[key]?.css ?? []));
  const css = [...closure([SIGN_IN_MODULE])]
    .flatMap((key) => manifest[key]?.css ?? [])
    .filter((name, i, all) => !entryCss.has(name) && all.indexOf(name) === i);
  return {
    css: css.map((name) => readFileSync(path.join(webDist, name), 'utf8').trim()).join('\n'),
    files: css,
  };
}

/** Accept-Language as the browser's preference list (navigator.languages), most wanted first. */
export function preferredLanguages(header: string | string[] | undefined): string[] {
  if (!header) return [];
  const ranked = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.q > 0);
  return ranked.sort((a, b) => b.q - a.q || a.index - b.index).map((entry) => entry.tag);
}

/** The language the app picks for this browser (lib/i18n + pickLocale: decision 0004). */
export function signInLanguage(acceptLanguage: string | string[] | undefined): Locale {
  return pickLocale(preferredLanguages(acceptLanguage));
}

/**
 * index.html with the sign-in screen in `#root` (marked `data-prerendered`, read by the app's
 * main.tsx and by index.html's style for visitors with a stored token), `lang`, the title, the
 * screen's styles and, in a `<style>` of their own, the colours the app would set on `<html>` and
 * the screen's style attributes (page-styles.ts: no `style` attribute under the CSP). Null if
 * index.html lacks a marker.
 */
export function signInPage(
  indexHtml: string,
  markup: SignInMarkup,
  lang: Locale,
  css: string,
): string | null {
  const root = indexHtml.indexOf('<div id="root">');
  const end = indexHtml.indexOf('<noscript>', root);
  const html = /<html lang="[^"]*">/.exec(indexHtml);
  if (root < 0 || end < 0 || !html || !indexHtml.includes('</head>')) return null;
  const screen = drawnScreen(markup.body, markup.palette);
  // A stylesheet cannot close its <style> element early (the build's own CSS, never tenant text).
  const inlineCss = css && !/<\/style/i.test(css) ? `<style>${css}</style>\n  ` : '';
  return (
    indexHtml
      .slice(0, root)
      .replace(html[0], () => `<html lang="${lang}">`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(markup.title)}</title>`)
      .replace('</head>', () => `${inlineCss}${screen.style}</head>`) +
    `<div id="root" data-prerendered="sign-in">${screen.body}</div>\n    ` +
    indexHtml.slice(end)
  );
}

/** The page and its brotli and gzip copies. */
export function compressedPage(html: string): { plain: Buffer; br: Buffer; gzip: Buffer } {
  const plain = Buffer.from(html, 'utf8');
  return {
    plain,
    br: brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(plain, { level: 9 }),
  };
}

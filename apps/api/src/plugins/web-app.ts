import { paintFirst } from './paint-first';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withContext } from './context-in-html';
import { notFoundError } from './errors';
import {
  loadScreenStyles,
  styleLinks,
  withScreenStyles,
  withStyleLinks,
  type ScreenStyles,
} from './screen-styles';
import type { ContextRow } from '../modules/contexts/repository';
import { toContextResource } from '../modules/contexts/service';
import {
  compressedPage,
  loadSignInRenderer,
  signInLanguage,
  signInPage,
  signInStyles,
  type SignInRenderer,
} from './sign-in-html';
import { normaliseHostname } from './tenant';
import { allowPageStyles, inlineStyleSources } from './page-styles';
import type { SignedInRenderer } from './signed-in-html';
import { signedInPages } from './signed-in-pages';
import { contextDocument, pageOf, type Page, type Variants } from './page-variants';
import type { Auth } from './auth';
import { mayDrawFor } from './draw-policy';
import { readOnly } from '../db/read-only';
import { isDrawnPath, LOGIN_PATH, pathPattern } from '@parcours/domain/routes';

type Encoding = 'br' | 'gzip';

function readVariants(file: string): Variants {
  const optional = (f: string) => (existsSync(f) ? readFileSync(f) : null);
  return { plain: readFileSync(file), br: optional(`${file}.br`), gzip: optional(`${file}.gz`) };
}

/**
 * The encodings a request accepts, by the rules browsers use: a coding listed with `q=0` is
 * refused, `*` stands for any coding not listed.
 */
export function acceptedEncodings(header: string | string[] | undefined): Set<Encoding> {
  const out = new Set<Encoding>();
  if (!header) return out;
  const listed = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    listed.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  for (const coding of ['br', 'gzip'] as const) {
    const q = listed.get(coding) ?? listed.get('*') ?? 0;
    if (q > 0) out.add(coding);
  }
  return out;
}

/** The smallest variant the request accepts. */
function pick(request: FastifyRequest, variants: Variants): { body: Buffer; encoding: Encoding | null } {
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (variants.br && accepted.has('br')) return { body: variants.br, encoding: 'br' };
  if (variants.gzip && accepted.has('gzip')) return { body: variants.gzip, encoding: 'gzip' };
  return { body: variants.plain, encoding: null };
}

/**
 * The built scripts and stylesheets under `/assets/` (hashed names, so the list is fixed for the
 * process's life), as URL paths: plain subresources, never a document or a worker, so the
 * document-only security headers are not sent with them (plugins/security-headers.ts). A worker
 * takes its CSP from its script's response: names with "worker" keep every header, and so do
 * pictures (an SVG opened on its own is a document).
 */
export function scriptAndStylePaths(webDist: string): Set<string> {
  const dir = path.join(webDist, 'assets');
  if (!existsSync(dir)) return new Set();
  return new Set(
    readdirSync(dir)
      .filter((name) => /\.(?:js|css)$/.test(name) && !/worker/i.test(name))
      .map((name) => `/assets/${name}`),
  );
}

/**
 * CSP sources (`'sha256-…'`) of the inline scripts of the built index.html (decision 0024: the
 * start-up script that starts the first screen's reads), so `script-src` allows exactly those and
 * no other inline script. Empty when there is no build or no inline script.
 */
export function inlineScriptHashes(webDist: string): string[] {
  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    if (/\ssrc\s*=/i.test(match[1] ?? '') || !match[2]) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * CSP sources of the `<style>` elements of the built index.html (its own and the entry's
 * stylesheet, inlined by the build: decision 0024), which every response's `style-src` allows:
 * the service worker serves that file as the app shell with the header it was fetched with.
 */
export function inlineStyleHashes(webDist: string): string[] {
  const indexFile = path.join(webDist, 'index.html');
  return existsSync(indexFile) ? inlineStyleSources(readFileSync(indexFile, 'utf8')) : [];
}

/**
 * Production: the built SPA on the same origin. Hashed assets are cached for good; any other
 * GET that is not a file gets index.html so client-side routes survive a reload. Unknown /api
 * paths never fall back to HTML. Every file goes out as its precompressed brotli or gzip copy
 * when the browser accepts one (plain otherwise), always with `Vary: Accept-Encoding`.
 */
export interface WebAppOptions {
  /** The tenant of a hostname (plugins/tenant.ts): whose sign-in screen `/login` shows. */
  tenantOf?: (hostname: string) => Promise<ContextRow>;
  /**
   * The server renderer: the sign-in screen, and the signed-in first screens where it has
   * `renderSignedIn` (decision 0046); by default the web build's `dist-server/server.js`.
   */
  renderer?: (SignInRenderer & Partial<SignedInRenderer>) | null;
  /** How a page and its brotli and gzip copies are made; by default compressedPage (tests count it). */
  compress?: (html: string) => Variants;
  /** The API's authentication: with it, drawn pages are kept (decision 0061). */
  auth?: Auth;
  /** Bytes the drawn pages kept in this process may hold (DRAWN_PAGE_CACHE_MB; 0: none kept). */
  drawnPageCacheBytes?: number;
  /** The routes' clock (tests move it): a kept page's time is judged by the clock its reads used. */
  now?: () => Date;
}

/** The sign-in page and the signed-in first screens the server draws: the one route table's (decision 0060). */
const SIGN_IN_PATH = new RegExp(pathPattern(LOGIN_PATH));

export async function registerWebApp(
  app: FastifyInstance,
  webDist: string,
  options: WebAppOptions = {},
): Promise<void> {
  const indexFile = path.join(webDist, 'index.html');
  const indexHtml = existsSync(indexFile) ? readVariants(indexFile) : null;
  const renderer: (SignInRenderer & Partial<SignedInRenderer>) | null =
    indexHtml && options.tenantOf
      ? options.renderer === undefined
        ? await loadSignInRenderer(webDist)
        : options.renderer
      : null;
  const signIn = indexHtml && options.tenantOf ? await signInPages(webDist, { ...options, renderer }) : null;
  const signedIn =
    indexHtml && options.tenantOf && renderer?.renderSignedIn
      ? signedInPages({
          app,
          indexFile,
          screens: loadScreenStyles(webDist),
          tenantOf: options.tenantOf,
          renderer: renderer as SignedInRenderer,
          auth: options.auth,
          cacheBytes: options.drawnPageCacheBytes,
          now: options.now,
        }).serve
      : null;
  const tenantIndex =
    indexHtml && options.tenantOf
      ? tenantPages(indexFile, loadScreenStyles(webDist), options.tenantOf, options.compress)
      : null;
  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: path.resolve(webDist),
      wildcard: false,
      // `/` is a page like any other (the fallback below), not the bare index.html file: pages
      // carry the tenant's context and their first screen's styles.
      index: false,
      // `file.br` / `file.gz` beside `file`, chosen from Accept-Encoding; plain when neither fits.
      preCompressed: true,
      // The SPA fallback below sends index.html itself; the api scope owns reply.sendFile.
      decorateReply: false,
      // Our setHeaders decides caching; send's own Cache-Control would override it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
        res.setHeader('vary', 'Accept-Encoding');
      },
    });
  }
  /** A page of the app (the shell, the sign-in screen, a signed-in screen drawn for the cookie's learner). */
  const servePage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    pathname: string,
    html: Variants,
  ) => {
    if (signedIn && isDrawnPath(pathname)) {
      // The page depends on who is signed in and on who sent the browser here: never kept by a cache on the way.
      reply.header('vary', 'Accept-Encoding, Accept-Language, Cookie, Sec-Fetch-Site');
    }
    if (signedIn && isDrawnPath(pathname) && mayDrawFor(request)) {
      const drawn = await signedIn(request, reply);
      if (drawn) {
        allowPageStyles(reply, drawn.styles);
        const { body, encoding } = pick(request, drawn);
        if (encoding) reply.header('content-encoding', encoding);
        return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(body);
      }
    }
    const page =
      signIn && SIGN_IN_PATH.test(pathname)
        ? ((await signIn(request)) ?? (await tenantIndex?.(request)))
        : await tenantIndex?.(request);
    // The sign-in HTML depends on the browser's languages (and the Host, like every page here).
    if (signIn && SIGN_IN_PATH.test(pathname)) reply.header('vary', 'Accept-Encoding, Accept-Language');
    else if (!reply.hasHeader('vary')) reply.header('vary', 'Accept-Encoding');
    if (page) allowPageStyles(reply, page.styles);
    const { body, encoding } = pick(request, page ?? html);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(body);
  };
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    if (
      indexHtml &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !/^\/api(\/|$)/.test(pathname) &&
      // Files under /static/ (badge pictures: docs/product.md §7) are files or nothing: a missing one is a
      // 404, not the app's HTML, so an <img> fails as it should instead of decoding a page.
      !/^\/static\//.test(pathname)
    ) {
      // A page load changes nothing (decision 0057): whatever is read to make the page, the API's
      // own routes included, is read where no write can happen (db/read-only.ts).
      return readOnly(`${request.method} ${pathname}`, () => servePage(request, reply, pathname, indexHtml));
    }
    throw notFoundError(request.method, request.url);
  });
}

/** Distinct tenant documents whose pages are kept (host names are data: the cache is bounded). */
const MAX_TENANT_DOCUMENTS = 64;

/**
 * What is kept for a tenant (its pages), found by what the pages are made of, not by the row
 * object alone. The tenant resolver (tenant.ts) reads the row again every 30 s and hands a new
 * object each time, even when nothing changed: keyed by the object only, every tenant's pages
 * were built and compressed again on the request path every 30 s (brotli 11, ~25 ms a page; the
 * sign-in screen is also rendered with React). The row object stays the fast path; on a miss the
 * entry is found by the serialised context document, the very bytes `withContext` puts in the
 * page and all the sign-in renderer reads of the row (toContextResource, which the document
 * wraps). A content import that changes the tenant changes the document, so it still brings new
 * pages as soon as the resolver reads the row again. At most MAX_TENANT_DOCUMENTS documents are
 * kept, the one found longest ago dropped first.
 */
function perTenantContent<T>(make: () => T): (row: ContextRow) => T {
  const byRow = new WeakMap<ContextRow, T>();
  const byDocument = new Map<string, T>();
  return (row) => {
    let entry = byRow.get(row);
    if (entry) return entry;
    const key = JSON.stringify(contextDocument(row));
    entry = byDocument.get(key);
    if (entry) {
      // Found again: moved to the end of the Map's order, the last to be dropped.
      byDocument.delete(key);
    } else {
      entry = make();
      const oldest = byDocument.keys().next();
      if (byDocument.size >= MAX_TENANT_DOCUMENTS && !oldest.done) byDocument.delete(oldest.value);
    }
    byDocument.set(key, entry);
    byRow.set(row, entry);
    return entry;
  };
}

/**
 * index.html with the tenant's context in it (context-in-html.ts) and, on a signed-in route
 * whose first screen has stylesheets, those (screen-styles.ts); per tenant content (a content
 * import that changes the tenant brings a new page: perTenantContent) and route. Null when the
 * Host names no tenant: the plain index.html, whose script asks for the context itself.
 */
function tenantPages(
  indexFile: string,
  screens: ScreenStyles[],
  tenantOf: (hostname: string) => Promise<ContextRow>,
  compress: (html: string) => Variants = compressedPage,
): (request: FastifyRequest) => Promise<Page | null> {
  const index = readFileSync(indexFile, 'utf8');
  const pages = perTenantContent(() => new Map<number, Page>());
  return async (request) => {
    try {
      const row = await tenantOf(normaliseHostname(request.hostname));
      const pathname = request.url.split('?')[0] ?? '';
      const route = screens.findIndex((screen) => screen.path.test(pathname));
      const byRoute = pages(row);
      let page = byRoute.get(route);
      if (!page) {
        const html = withScreenStyles(withContext(index, contextDocument(row)), screens[route]);
        byRoute.set(route, (page = pageOf(html, compress)));
      }
      return page;
    } catch (error) {
      request.log.debug({ err: error }, 'no tenant for this host; plain index.html');
      return null;
    }
  };
}

/**
 * `/login` with the sign-in screen in the HTML (decision 0026), per tenant content (a content
 * import that changes the tenant brings a new page: perTenantContent), language and SSO failure
 * notice. Null for a request the renderer does not draw: the plain index.html.
 */
async function signInPages(
  webDist: string,
  options: WebAppOptions,
): Promise<((request: FastifyRequest) => Promise<Page | null>) | null> {
  const { renderer, tenantOf, compress = compressedPage } = options;
  if (!renderer || !tenantOf) return null;
  const index = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const { css, files } = signInStyles(webDist);
  // The styles drawn in the page are also named by disabled links: the app's import of the
  // screen's chunk then asks for none of them (screen-styles.ts).
  const links = styleLinks(files);
  const pages = perTenantContent(() => new Map<string, Promise<Page | null>>());
  return async (request) => {
    try {
      const row = await tenantOf(normaliseHostname(request.hostname));
      const lang = signInLanguage(request.headers['accept-language']);
      const query = new URLSearchParams(request.url.split('?')[1] ?? '');
      // Only what the sign-in screen reads: other parameters (a campaign's) give the same page.
      const search = new URLSearchParams();
      for (const name of ['mode', 'sso']) {
        const value = query.get(name);
        if (value !== null) search.set(name, value);
      }
      const key = `${lang}?${search.toString()}`;
      const byKey = pages(row);
      let page = byKey.get(key);
      if (!page) {
        const qs = search.toString();
        page = renderer
          .renderSignIn({ tenant: toContextResource(row), lang, search: qs ? `?${qs}` : '' })
          .then((markup) => {
            const base = withContext(index, contextDocument(row));
            const html = markup && signInPage(base, markup, lang, css);
            return html ? pageOf(paintFirst(withStyleLinks(html, links)), compress) : null;
          });
        // Bounded: mode and sso are free text in the address.
        if (byKey.size < 16) {
          byKey.set(key, page);
          // A failure is not kept: pages now live as long as their tenant's content, not 30 s.
          const pending = page;
          void pending.catch(() => {
            if (byKey.get(key) === pending) byKey.delete(key);
          });
        }
      }
      return await page;
    } catch (error) {
      request.log.warn({ err: error }, 'sign-in screen not rendered; plain index.html');
      return null;
    }
  };
}

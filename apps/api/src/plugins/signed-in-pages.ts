import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DrawnRead } from '../lib/drawn-reads';
import type { ContextRow } from '../modules/contexts/repository';
import { toContextResource } from '../modules/contexts/service';
import type { Auth, AuthUser } from './auth';
import { withContext } from './context-in-html';
import { DrawnPageCache, drawnPageKey, pageTimeLimit, type KeptPage } from './drawn-page-cache';
import { clearHtmlSession, htmlSessionToken } from './html-session';
import { compressedPrivatePage, contextDocument, pageOf, type Page } from './page-variants';
import { paintFirst } from './paint-first';
import { withScreenStyles, type ScreenStyles } from './screen-styles';
import { signInLanguage } from './sign-in-html';
import { injectFetch, injectRead, signedInPage, type SignedInRenderer } from './signed-in-html';
import { normaliseHostname } from './tenant';

export interface SignedInPagesOptions {
  app: FastifyInstance;
  indexFile: string;
  screens: ScreenStyles[];
  tenantOf: (hostname: string) => Promise<ContextRow>;
  renderer: SignedInRenderer;
  /** The API's authentication: without it no page is kept (every request draws). */
  auth?: Auth | undefined;
  /** Bytes the kept pages may hold in this process (0: none kept). */
  cacheBytes?: number | undefined;
  /** The routes' clock: the covered reads' time rules are in its time. */
  now?: (() => Date) | undefined;
}

/** The drawn pages kept by an app (tests and the bench look at them). */
const keptPages = new WeakMap<FastifyInstance, DrawnPageCache<Page>>();
export const keptPagesOf = (app: FastifyInstance): DrawnPageCache<Page> | undefined => keptPages.get(app);

/** What a draw gave: the page, or why there is none. */
type Drawn = { page: Page; kept: KeptPage<Page> | null } | { page: null; refusedToken: boolean };

/** Accept-Language values longer than this draw a page that is not kept (a key is bounded). */
const MAX_LANGUAGE_HEADER = 256;

const header = (request: FastifyRequest, name: string): string => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The home or a player page drawn for the learner of the HTML session cookie (decision 0046),
 * or null: no cookie, a token the API refuses (the cookie is then ended), a page the renderer
 * does not draw or a renderer failure: the tenant's page, as for a browser without the cookie.
 * A page drawn is kept (decision 0061, drawn-page-cache.ts) under its key and served again while
 * its uncovered reads answer the same bytes and its time has not come.
 */
export function signedInPages(o: SignedInPagesOptions): {
  serve: (request: FastifyRequest, reply: FastifyReply) => Promise<Page | null>;
  cache: DrawnPageCache<Page> | null;
} {
  const { app, renderer, tenantOf, auth } = o;
  const clock = o.now ?? (() => new Date());
  const index = readFileSync(o.indexFile, 'utf8');
  // index.html names the build's hashed files: another build, another id.
  const build = createHash('sha256').update(index).digest('base64url').slice(0, 22);
  const cache = auth && (o.cacheBytes ?? 0) > 0 ? new DrawnPageCache<Page>(o.cacheBytes!) : null;
  if (cache) keptPages.set(app, cache);
  // The tenant as the page shows it (name, colours, settings), by row object (tenant.ts hands a
  // new one when it reads the row again).
  const tenantKeys = new WeakMap<ContextRow, string>();
  const tenantKey = (row: ContextRow) => {
    let key = tenantKeys.get(row);
    if (!key) {
      key = createHash('sha256')
        .update(JSON.stringify(contextDocument(row)))
        .digest('base64url');
      tenantKeys.set(row, key);
    }
    return key;
  };
  // One draw per key at a time: requests that come while it is drawn take its page.
  const drawing = new Map<string, Promise<Drawn>>();

  async function draw(
    request: FastifyRequest,
    row: ContextRow,
    token: string,
    keep: boolean,
  ): Promise<Drawn> {
    const pathname = request.url.split('?')[0] ?? '';
    const lang = signInLanguage(request.headers['accept-language']);
    const reads: DrawnRead[] = [];
    const startedAt = clock().getTime();
    const drawn = await renderer.renderSignedIn({
      tenant: toContextResource(row),
      lang,
      url: request.url,
      fetch: injectFetch(app, request, token, keep ? reads : undefined),
    });
    if ('refused' in drawn) return { page: null, refusedToken: drawn.refused === 'token' };
    const base = withScreenStyles(
      withContext(index, contextDocument(row)),
      o.screens.find((screen) => screen.path.test(pathname)),
    );
    const html = signedInPage(base, drawn, lang);
    if (!html) return { page: null, refusedToken: false };
    const page = pageOf(paintFirst(html), compressedPrivatePage);
    if (!keep) return { page, kept: null };
    // Until the first instant a covered read or the page's own data could change by the clock.
    let validUntil = pageTimeLimit(drawn.state, startedAt);
    for (const read of reads)
      if (read.coveredUntil !== null) validUntil = Math.min(validUntil, read.coveredUntil);
    const uncovered = reads.filter((read) => read.coveredUntil === null);
    const bytes =
      page.plain.length +
      (page.br?.length ?? 0) +
      uncovered.reduce((sum, read) => sum + read.body.length + read.url.length, 0);
    return { page, kept: { page, reads: uncovered, validUntil, bytes } };
  }

  /** Whether every uncovered read of a kept page is now what it was when drawn. */
  async function stillSame(request: FastifyRequest, token: string, kept: KeptPage<Page>): Promise<boolean> {
    for (const read of kept.reads) {
      const res = await injectRead(app, request, token, read.url);
      if (res.statusCode !== read.status || !res.rawPayload.equals(read.body)) return false;
    }
    return true;
  }

  /** The key of the page for this request and its user, or null when it is not kept (refused token, odd headers). */
  async function keyOf(
    request: FastifyRequest,
    row: ContextRow,
    token: string,
  ): Promise<{ key: string; user: AuthUser } | null> {
    const language = header(request, 'accept-language');
    if (!cache || !auth || language.length > MAX_LANGUAGE_HEADER) return null;
    const user = await auth.userOfToken(row.id, token);
    if (!user?.homeVersions) return null;
    const key = drawnPageKey({
      build,
      tenant: tenantKey(row),
      host: header(request, 'host'),
      proto: header(request, 'x-forwarded-proto'),
      userId: user.id,
      isAdmin: user.isAdmin,
      url: request.url,
      acceptLanguage: language,
      stamps: user.homeVersions,
    });
    return { key, user };
  }

  async function serve(request: FastifyRequest, reply: FastifyReply): Promise<Page | null> {
    const token = htmlSessionToken(app, request);
    if (!token) return null;
    try {
      const row = await tenantOf(normaliseHostname(request.hostname));
      const keyed = await keyOf(request, row, token);
      let drawn: Drawn;
      if (cache && keyed !== null) {
        const { key } = keyed;
        const kept = cache.get(key, clock().getTime());
        if (kept && (await stillSame(request, token, kept))) {
          cache.counts.kept++;
          return kept.page;
        }
        let pending = drawing.get(key);
        if (!pending) {
          cache.counts.drawn++;
          pending = draw(request, row, token, true).then((result) => {
            if (result.page && result.kept) cache.set(key, result.kept);
            else cache.delete(key);
            return result;
          });
          drawing.set(key, pending);
          void pending.finally(() => drawing.delete(key)).catch(() => undefined);
        }
        drawn = await pending;
      } else {
        drawn = await draw(request, row, token, false);
      }
      if (!drawn.page && drawn.refusedToken) clearHtmlSession(request, reply);
      return drawn.page;
    } catch (error) {
      request.log.warn({ err: error }, 'signed-in screen not rendered; the tenant page');
      return null;
    }
  }

  return { serve, cache };
}

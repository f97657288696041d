/**
 * The signed-in first screens as HTML (issue 26, decision 0046): the home and a player page,
 * drawn by the API for a browser that sends the HTML session cookie. The tree is the app's own
 * (AppContent under the server's router), its reads made through the app's own query options and
 * API client, whose fetch here is the API's routes called in-process with that learner's token
 * (apps/api/src/plugins/signed-in-html.ts): the page holds what the API answers that learner,
 * nothing more. The reads travel in the page (TanStack Query's dehydrated state) and the browser
 * hydrates the same tree from them (src/main.tsx), asking for none of them again.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { dehydrate, QueryClient } from '@tanstack/react-query';
import type { Locale, MeResponse } from '@parcours/domain/entities';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppContent } from '../app/App';
import { loadSignedIn } from '../app/RouteGate';
import { loadScreen, routeOf } from '../app/routes';
import { pageTitle } from '../app/use-page-title';
import { ApiError, apiFetch, setServerFetch } from '../lib/api-client';
import { brandPalette } from '../lib/branding';
import { changeLanguage, t } from '../lib/i18n';
import { QUERY_CLIENT_CONFIG, ServerQueryClientContext } from '../lib/query-client';
import { replaceSession } from '../lib/session';
import { setTenant, type Tenant } from '../lib/tenant';
import { inTurn } from './render-queue';
import { SANITIZE_HTML_OPTIONS } from '@parcours/domain/content-html';
import { parseHTML } from 'linkedom';
import sanitizeHtml from 'sanitize-html';
import { setServerDocument } from '../components/ui/glossary/highlight-terms';
import { setServerCleaner, setServerInertDocument } from '../lib/sanitize-html';
import type { ServerState } from '../lib/server-state';

/** The routes drawn on the server: the two first screens a learner opens most. */
export const DRAWN_ROUTES = new Set(['/', '/session/:id', '/session/:id/page/:pageId']);

export interface SignedInRequest {
  tenant: Tenant;
  /** The language the browser asks for (Accept-Language); the learner's own choice wins. */
  lang: Locale;
  /** Path and query of the document request. */
  url: string;
  /** The API's routes, in-process, with this learner's token (GET only). */
  fetch: typeof fetch;
}

export type SignedInAnswer =
  | { body: string; title: string; palette: Record<string, string>; state: string; lang: Locale }
  | { refused: 'token' | 'page' };

// No Sanitizer API and no DOM here: the importer's cleaner (the same lists as the browser's,
// decision 0033) and a small DOM for the glossary's buttons (components/ui/glossary).
setServerCleaner((html) => sanitizeHtml(html, SANITIZE_HTML_OPTIONS));
const serverDocument = () =>
  parseHTML('<!doctype html><html><body></body></html>').document as unknown as Document;
setServerDocument(serverDocument);
// And one to read text from (htmlToText: choices' names, announcements).
setServerInertDocument(serverDocument);

/** React's mark of a Suspense boundary left for the browser to render. */
const CLIENT_RENDERED = '<!--$!-->';

/** How long a page waits for a lazy part's code before leaving that part to the browser. */
const LAZY_WAIT_MS = 5_000;

/**
 * Loads every lazy part the tree meets: react-dom/static's prerender waits for each (a
 * renderToString leaves them to the browser). Its HTML is not used: a prerender that waited
 * writes the late parts with inline scripts, which the CSP refuses; the tree is drawn again by
 * renderToString, which then finds every part loaded (React.lazy keeps what it loaded).
 */
async function loadLazyParts(tree: ReactNode): Promise<void> {
  const { prelude } = await prerenderToNodeStream(tree, {
    signal: AbortSignal.timeout(LAZY_WAIT_MS),
    onError: () => undefined,
  });
  prelude.resume();
}

const requestFetch = new AsyncLocalStorage<typeof fetch>();
// Every API call made while a page is read goes through that page's fetch (lib/api-client.ts).
setServerFetch(() => requestFetch.getStore());

export function renderSignedIn(request: SignedInRequest): Promise<SignedInAnswer> {
  const { pathname, search } = new URL(request.url, 'http://server.invalid');
  const route = routeOf(pathname);
  if (!route || !DRAWN_ROUTES.has(route.path)) return Promise.resolve({ refused: 'page' });
  return requestFetch.run(request.fetch, async (): Promise<SignedInAnswer> => {
    let me: MeResponse;
    try {
      me = await apiFetch<MeResponse>('users/me');
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403))
        return { refused: 'token' };
      throw error;
    }
    // Missing required data: the browser shows its gate first (RouteGate), not this screen.
    if (me.profile.needsRequiredDatas) return { refused: 'page' };
    const client = new QueryClient(QUERY_CLIENT_CONFIG);
    await Promise.all([
      loadScreen(pathname),
      loadSignedIn(),
      route.prefetch?.({ userId: me._id, pathname, search, client }),
    ]);
    // A read that failed would draw the screen's error: the browser tries it again itself.
    if (
      client
        .getQueryCache()
        .getAll()
        .some((query) => query.state.status === 'error')
    ) {
      return { refused: 'page' };
    }
    // The learner's own language (the user menu) wins over the browser's (app/boot.ts).
    const lang = me.profile.preferredLocale ?? request.lang;
    const state: ServerState = { me, queries: dehydrate(client) };
    return inTurn(async () => {
      await changeLanguage(lang);
      setTenant(request.tenant);
      const previous = replaceSession({ status: 'authenticated', user: me, notice: null });
      try {
        const tree = (
          <ServerQueryClientContext value={client}>
            <StaticRouter location={`${pathname}${search}`}>
              <AppContent />
            </StaticRouter>
          </ServerQueryClientContext>
        );
        // A lazy part met for the first time (a row type's code) is left to the browser by
        // renderToString (`<!--$!-->`: React's #419 at hydration, that part drawn again). Ten
        // milliseconds and three tries were not always enough: the parts are loaded, then drawn.
        let body = renderToString(tree);
        if (body.includes(CLIENT_RENDERED)) {
          await loadLazyParts(tree).catch(() => undefined);
          body = renderToString(tree);
        }
        return {
          body,
          title: pageTitle(request.tenant.attributes.name, t(route.titleKey), t('app.fallbackTitle')),
          palette: brandPalette(request.tenant.attributes.assets?.colors),
          state: JSON.stringify(state),
          lang,
        };
      } finally {
        replaceSession(previous);
        setTenant(null);
        client.clear();
      }
    });
  });
}

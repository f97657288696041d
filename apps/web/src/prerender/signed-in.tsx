/**
 * The signed-in first screens as HTML (issue 26, decision 0046): the drawn routes of the one
 * table (packages/domain/src/routes.ts: the home and a player page), drawn by the API for a
 * browser that sends the HTML session cookie. The tree is the app's own under React Router's
 * static handler (prerender/draw.tsx, decision 0060): the route's loader makes its reads through
 * the app's own query options and API client, whose fetch here is the API's routes called
 * in-process with that learner's token (apps/api/src/plugins/signed-in-html.ts): the page holds
 * what the API answers that learner, nothing more. The reads travel in the page (TanStack Query's
 * dehydrated state) with the router's hydration data, and the browser hydrates the same tree from
 * them (src/main.tsx), asking for none of them again. Each request's state is its own (its query
 * client, learner, language, tenant): pages are drawn concurrently.
 */
import { dehydrate, QueryClient } from '@tanstack/react-query';
import type { Locale, MeResponse } from '@parcours/domain/entities';
import { isDrawnPath } from '@parcours/domain/routes';
import { drawRequestContext } from '../app/draw-context';
import { routeOf } from '../app/routes';
import { pageTitle } from '../app/use-page-title';
import { ApiError, apiFetch } from '../lib/api-client';
import { brandPalette } from '../lib/branding';
import { t } from '../lib/i18n';
import { QUERY_CLIENT_CONFIG, ServerQueryClientContext } from '../lib/query-client';
import type { RequestScope } from '../lib/request-scope';
import type { Tenant } from '../lib/tenant';
import { SANITIZE_HTML_OPTIONS } from '@parcours/domain/content-html';
import { parseHTML } from 'linkedom';
import sanitizeHtml from 'sanitize-html';
import { setServerDocument } from '../components/ui/glossary/highlight-terms';
import { setServerCleaner, setServerInertDocument } from '../lib/sanitize-html';
import type { ServerState } from '../lib/server-state';
import { drawTree, inScope, queryRoute, routeTree } from './draw';

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

export async function renderSignedIn(request: SignedInRequest): Promise<SignedInAnswer> {
  const { pathname } = new URL(request.url, 'http://server.invalid');
  const route = routeOf(pathname);
  if (!route || !isDrawnPath(pathname)) return { refused: 'page' };
  // Who the page is for, read first with the cookie's token (no learner yet: the browser's language).
  const reading: RequestScope = {
    tenant: request.tenant,
    lang: request.lang,
    session: { status: 'connecting', user: null, notice: null },
    fetch: request.fetch,
  };
  let me: MeResponse;
  try {
    me = await inScope(reading, () => apiFetch<MeResponse>('users/me'));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403))
      return { refused: 'token' };
    throw error;
  }
  // Missing required data: the browser shows its gate first (RouteGate), not this screen.
  if (me.profile.needsRequiredDatas) return { refused: 'page' };
  // The learner's own language (the user menu) wins over the browser's (app/boot.ts).
  const lang = me.profile.preferredLocale ?? request.lang;
  const scope: RequestScope = {
    ...reading,
    lang,
    session: { status: 'authenticated', user: me, notice: null },
  };
  const client = new QueryClient(QUERY_CLIENT_CONFIG);
  try {
    // The route's loader fills this request's query cache (app/routes.tsx).
    const context = await inScope(scope, () =>
      queryRoute(request.url, drawRequestContext({ queryClient: client, me })),
    );
    // A read that failed would draw the screen's error: the browser tries it again itself.
    const failed = client
      .getQueryCache()
      .getAll()
      .some((query) => query.state.status === 'error');
    if (!context || context.errors || failed) return { refused: 'page' };
    const tree = (
      <ServerQueryClientContext value={client}>{routeTree(context, scope)}</ServerQueryClientContext>
    );
    const body = await drawTree(tree, scope);
    const state: ServerState = {
      me,
      queries: dehydrate(client),
      router: { loaderData: context.loaderData, actionData: null, errors: null },
    };
    return inScope(scope, async () => ({
      body,
      title: pageTitle(request.tenant.attributes.name, t(route.titleKey), t('app.fallbackTitle')),
      palette: brandPalette(request.tenant.attributes.assets?.colors),
      state: JSON.stringify(state),
      lang,
    }));
  } finally {
    client.clear();
  }
}

/**
 * Drawing a route of the app on the server (decision 0060): React Router's static handler runs
 * the matched routes' loaders (and loads their route modules), and the static router renders
 * the app's own tree, under the request's own state (lib/request-scope.ts): its tenant, learner,
 * language and fetch, read through React context by the screens' hooks and through an
 * AsyncLocalStorage by plain calls. Nothing is module state, so one process draws many pages at
 * once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  type StaticHandlerContext,
} from 'react-router';
import { appRoutes } from '../app/App';
import { RequestScopeContext, setRequestScopeReader, type RequestScope } from '../lib/request-scope';

const scopes = new AsyncLocalStorage<RequestScope>();
setRequestScopeReader(() => scopes.getStore());

/** One handler for the process: each route module is loaded once, by the first page that needs it. */
const handler = createStaticHandler(appRoutes);

/** Runs `run` with `scope` as the request being drawn (for plain calls: `t()`, `apiFetch`). */
export function inScope<T>(scope: RequestScope, run: () => Promise<T>): Promise<T> {
  return scopes.run(scope, run);
}

/**
 * The static handler's answer for `url` (path and query): the loaders' data, or null when the
 * router would redirect or the path is none of the app's.
 */
export async function queryRoute(
  url: string,
  requestContext?: unknown,
): Promise<StaticHandlerContext | null> {
  const request = new Request(new URL(url, 'http://server.invalid'));
  const context = await handler.query(request, { requestContext });
  return context instanceof Response ? null : context;
}

/** The app's tree for a queried route, with the request's state in context. */
export function routeTree(context: StaticHandlerContext, scope: RequestScope): ReactNode {
  const router = createStaticRouter(handler.dataRoutes, context);
  return (
    <RequestScopeContext value={scope}>
      {/* The CSP refuses inline scripts: the hydration data travels in the page's JSON block. */}
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </RequestScopeContext>
  );
}

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

/**
 * The tree as HTML. A lazy part met for the first time (a row type's code) is left to the browser
 * by renderToString (`<!--$!-->`: React's #419 at hydration, that part drawn again): the parts
 * are loaded, then drawn. Runs in the request's scope: the render reads it synchronously.
 */
export async function drawTree(tree: ReactNode, scope: RequestScope): Promise<string> {
  return inScope(scope, async () => {
    let body = renderToString(tree);
    if (body.includes(CLIENT_RENDERED)) {
      await loadLazyParts(tree).catch(() => undefined);
      body = renderToString(tree);
    }
    return body;
  });
}

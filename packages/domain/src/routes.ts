/**
 * The one route table (docs/product.md §2, decision 0060): every path of the web app with who may
 * open it and how the server treats it. Pure data, no React: the web app's routes
 * (apps/web/src/app/routes.tsx) add each path's screen and title to it, the web build reads it for
 * its first-screen files and its service worker (apps/web/vite.config.ts), and the API for the
 * pages it draws (apps/api/src/plugins/web-app.ts). It lives in the domain package because both
 * apps import that package already: the API does not depend on the web build to know its paths.
 */

/**
 * public: anyone (sign-in, reset, legal texts, error pages — reachable from the sign-in footer);
 * user: docs/product.md §2 permission, failure → /login; lesson: same permission, failure → /403.
 */
export type RouteAccess = 'public' | 'user' | 'lesson';

export interface RouteEntry {
  /** React Router's path syntax (`:param` segments). */
  readonly path: string;
  readonly access: RouteAccess;
  /** Pipe-separated user domains; docs/product.md §2 default applies when absent. */
  readonly permission?: string;
  /** Where to redirect instead of rendering a screen. */
  readonly redirectTo?: string;
  /** Reachable in sandbox mode (docs/product.md §6) without a signed-in user: the back office's preview. */
  readonly sandbox?: boolean;
  /**
   * Drawn by the API for the learner of the HTML session cookie (decision 0046): the two first
   * screens a learner opens most.
   */
  readonly drawn?: boolean;
  /**
   * Always from the network, never the service worker's app shell: the response keeps the back
   * office's window.opener (COOP unsafe-none), which a cached copy of index.html would not.
   */
  readonly networkOnly?: boolean;
}

export const ROUTE_TABLE = [
  { path: '/', access: 'user', drawn: true },
  { path: '/me', access: 'user' },
  { path: '/login', access: 'public' },
  { path: '/reset/:token', access: 'public' },
  { path: '/reset', access: 'public' },
  { path: '/tableau-de-bord', access: 'user', redirectTo: '/niveaux' },
  { path: '/niveaux', access: 'user' },
  { path: '/metiers', access: 'user' },
  { path: '/statistiques', access: 'user' },
  { path: '/validations', access: 'user' },
  { path: '/logbook', access: 'user' },
  { path: '/render/node/:id', access: 'lesson' },
  { path: '/session/:id', access: 'lesson', drawn: true },
  { path: '/session/:id/page/:pageId', access: 'lesson', drawn: true },
  { path: '/session/:id/actions', access: 'lesson' },
  { path: '/session/:id/questions', access: 'lesson' },
  { path: '/preview', access: 'lesson', sandbox: true, networkOnly: true },
  { path: '/correction', access: 'lesson', networkOnly: true },
  { path: '/correction/:pageId', access: 'lesson', networkOnly: true },
  { path: '/correction/:lessonId/page/:pageId', access: 'lesson', networkOnly: true },
  { path: '/evaluate/:type/:id', access: 'user' },
  { path: '/legal/mentions', access: 'public' },
  { path: '/legal/protection-des-donnees', access: 'public' },
  { path: '/404', access: 'public' },
  { path: '/403', access: 'public' },
  { path: '/test-badges', access: 'user' },
  // A class's teacher: its learners' time accommodation (decision 0019); the API checks the role.
  { path: '/enseignement', access: 'user' },
  { path: '/enseignement/:classId', access: 'user' },
] as const satisfies readonly RouteEntry[];

export type RoutePath = (typeof ROUTE_TABLE)[number]['path'];

export const LOGIN_PATH = '/login' satisfies RoutePath;

/**
 * The pathnames of a route as a RegExp source (one segment per `:param`, an optional trailing
 * slash), for code that has no router: the API, the build, the service worker, the inline script.
 */
export function pathPattern(path: string): string {
  const body = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('\\/');
  return path === '/' ? '^\\/$' : `^${body}\\/?$`;
}

// Made on first use: index.html's inline script imports this module for its markers only, and
// the bundler then leaves the table out of it.
let patterns: { route: RouteEntry; pattern: RegExp }[] | null = null;
const PATTERNS = () =>
  (patterns ??= ROUTE_TABLE.map((route: RouteEntry) => ({
    route,
    pattern: new RegExp(pathPattern(route.path)),
  })));

/** The table's route of `pathname`, if any (no two paths of the table match the same pathname). */
export function routeEntryOf(pathname: string): RouteEntry | undefined {
  return PATTERNS().find(({ pattern }) => pattern.test(pathname))?.route;
}

/**
 * The `:param` values of `pathname` under `path` (decoded), or null when it is not that path's:
 * for code without a router (index.html's inline script).
 */
export function paramsOf(path: string, pathname: string): Record<string, string> | null {
  const names = path.split('/').filter((segment) => segment.startsWith(':'));
  const source = pathPattern(path).replace(/\[\^\/\]\+/g, '([^/]+)');
  const found = new RegExp(source).exec(pathname);
  if (!found) return null;
  const params: Record<string, string> = {};
  try {
    names.forEach((name, index) => (params[name.slice(1)] = decodeURIComponent(found[index + 1] ?? '')));
  } catch {
    return null;
  }
  return params;
}

/** Whether the API draws `pathname` for a signed-in learner (decision 0046). */
export function isDrawnPath(pathname: string): boolean {
  return routeEntryOf(pathname)?.drawn === true;
}

/** The patterns of the paths the service worker leaves to the network (`networkOnly`). */
export function networkOnlyPatterns(): RegExp[] {
  return PATTERNS()
    .filter(({ route }) => route.networkOnly)
    .map(({ pattern }) => pattern);
}

/**
 * The markers a drawn page carries, written by the API and read by the web app (one definition
 * for both, decision 0060).
 */
export const HTML_MARKERS = {
  /** The JSON data block of a drawn page: the learner, the reads and the router's hydration data. */
  stateElementId: 'parcours-state',
  /** In `<head>` of a page drawn for a signed-in learner, read by index.html's inline script. */
  drawnMeta: '<meta name="parcours-drawn" content="signed-in" />',
  drawnMetaSelector: 'meta[name="parcours-drawn"]',
  /** `#root`'s `data-prerendered` for a drawn signed-in page (the sign-in page's is `""`). */
  drawnRoot: 'signed-in',
  /** A page whose screen is in its HTML, its code asked for after its first paint (decision 0054). */
  paintFirstMeta: '<meta name="parcours-paint-first" />',
  paintFirstMetaSelector: 'meta[name="parcours-paint-first"]',
  afterPaintScriptType: 'parcours/after-paint',
  afterPaintLinkRel: 'parcours-after-paint',
} as const;

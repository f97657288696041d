/**
 * The web app's routes (decision 0060): the one table of packages/domain/src/routes.ts (paths,
 * access, drawn pages), each path with its title and its screen, as React Router data-mode route
 * objects. The same objects serve the browser (createBrowserRouter, app/router.tsx) and the
 * server (createStaticHandler, prerender/). Every screen is a `lazy` route module (its own chunk,
 * loaded by the router before it renders); a signed-in screen's `loader` puts its first reads in
 * the query cache (`ensureQueryData`), on the server for a drawn page (decision 0046) and in the
 * browser for a start or a navigation (decision 0030).
 */
import { ROUTE_TABLE, type RouteEntry, type RoutePath } from '@parcours/domain/routes';
import type { ComponentType } from 'react';
import { matchPath, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { loadChunk } from '../features/new-version/load-errors';
import { ErrorPageRedirect } from '../lib/error-page';
import { loadScreenTexts, type TranslationKey } from '../lib/i18n';
import { drawContext } from './draw-context';
import type { ReadsContext, RouteDef } from './route-meta';
import { firstReadsLoader } from './first-reads';
import { RouteError, RouteGate, RouteLoading } from './RouteGate';
import { loadHomeScreen, loadHomeReads } from './screens/HomeScreen';
import { loadPlayerReads } from './screens/player-reads';

export type { RouteAccess } from '@parcours/domain/routes';
export type { ReadsContext, RouteDef } from './route-meta';

interface ScreenDef {
  titleKey: TranslationKey;
  /** The screen's code (absent: a redirect). */
  screen?: () => Promise<ComponentType>;
  /** Its first reads, into the query cache before it renders. */
  reads?: (context: ReadsContext) => Promise<unknown>;
}

const pick =
  <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  () =>
    load().then((module) => module[name]);

/** A screen that shows content HTML comes with its cleaner (decision 0033), so it renders whole. */
const withSanitizer = <M extends { sanitizerReady: () => Promise<void> }>(module: M) =>
  module.sanitizerReady().then(() => module);

const legal = () => import('../features/legal/components/LegalPage').then(withSanitizer);
const dashboard = pick(() => import('./screens/DashboardScreen'), 'DashboardScreen');
const player = pick(() => import('./screens/PlayerScreen').then(withSanitizer), 'PlayerScreen');
const correction = pick(() => import('./screens/CorrectionScreen').then(withSanitizer), 'CorrectionScreen');
const reset = pick(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage');
const teaching = pick(() => import('../features/teaching/components/TeachingPage'), 'TeachingPage');

/** Each path of the table: its title and screen (a path missing here fails the type check). */
const SCREENS: Record<RoutePath, ScreenDef> = {
  // Composed with the contact feature's action (see screens/HomeScreen).
  '/': { titleKey: 'routes.home', screen: pick(loadHomeScreen, 'default'), reads: loadHomeReads },
  '/me': {
    titleKey: 'routes.account',
    screen: pick(() => import('../features/account/components/ProfilePage'), 'ProfilePage'),
  },
  '/login': {
    titleKey: 'routes.login',
    screen: pick(() => import('../features/auth/components/LoginPage'), 'LoginPage'),
  },
  '/reset/:token': { titleKey: 'routes.reset', screen: reset },
  '/reset': { titleKey: 'routes.reset', screen: reset },
  '/tableau-de-bord': { titleKey: 'routes.dashboard' },
  '/niveaux': { titleKey: 'routes.levels', screen: dashboard },
  '/metiers': { titleKey: 'routes.jobs', screen: dashboard },
  '/statistiques': { titleKey: 'routes.stats', screen: dashboard },
  '/validations': { titleKey: 'routes.certificates', screen: dashboard },
  '/logbook': { titleKey: 'routes.logbook', screen: dashboard },
  '/render/node/:id': {
    titleKey: 'routes.courseNode',
    screen: pick(() => import('./screens/CourseNodeScreen').then(withSanitizer), 'CourseNodeScreen'),
  },
  '/session/:id': { titleKey: 'routes.player', screen: player, reads: loadPlayerReads },
  '/session/:id/page/:pageId': { titleKey: 'routes.player', screen: player, reads: loadPlayerReads },
  '/session/:id/actions': {
    titleKey: 'routes.playerActions',
    screen: pick(() => import('./screens/PlayerActionsScreen'), 'PlayerActionsScreen'),
  },
  '/session/:id/questions': {
    titleKey: 'routes.playerQuestions',
    screen: pick(() => import('./screens/PlayerQuestionsScreen'), 'PlayerQuestionsScreen'),
  },
  '/preview': {
    titleKey: 'routes.preview',
    screen: pick(() => import('./screens/PreviewScreen').then(withSanitizer), 'PreviewScreen'),
  },
  '/correction': { titleKey: 'routes.correction', screen: correction },
  '/correction/:pageId': { titleKey: 'routes.correction', screen: correction },
  '/correction/:lessonId/page/:pageId': { titleKey: 'routes.correction', screen: correction },
  '/evaluate/:type/:id': {
    titleKey: 'routes.evaluate',
    screen: pick(() => import('./screens/EvaluateScreen'), 'EvaluateScreen'),
  },
  '/legal/mentions': { titleKey: 'routes.legalMentions', screen: pick(legal, 'MentionsPage') },
  '/legal/protection-des-donnees': {
    titleKey: 'routes.dataProtection',
    screen: pick(legal, 'DataProtectionPage'),
  },
  '/404': {
    titleKey: 'routes.notFound',
    screen: pick(() => import('../features/errors/components/NotFoundPage'), 'NotFoundPage'),
  },
  '/403': {
    titleKey: 'routes.forbidden',
    screen: pick(() => import('../features/errors/components/ForbiddenPage'), 'ForbiddenPage'),
  },
  '/test-badges': {
    titleKey: 'routes.testBadges',
    screen: pick(() => import('./screens/TestBadgesScreen'), 'TestBadgesScreen'),
  },
  '/enseignement': { titleKey: 'routes.teaching', screen: teaching },
  '/enseignement/:classId': { titleKey: 'routes.teaching', screen: teaching },
};

export const ROUTES: readonly RouteDef[] = ROUTE_TABLE.map((entry) => ({
  ...(entry as RouteEntry),
  path: entry.path,
  titleKey: SCREENS[entry.path].titleKey,
}));

/** The route of `pathname`, if any. */
export function routeOf(pathname: string): RouteDef | undefined {
  return ROUTES.find((candidate) => matchPath({ path: candidate.path, end: true }, pathname));
}

// Server state only matters once signed in: the query cache comes with the first guarded screen,
// and so do the signed-in screens' texts (the /login page loads only the core catalogue, see
// vite-locale-split.ts).
const loadQueryProvider = () => import('./QueryProvider').then((module) => module.QueryProvider);

/** The route module of `def`: its screen inside its gate, once its code (and layer) is in. */
function lazyScreen(def: RouteDef, screen: () => Promise<ComponentType>) {
  return async () => {
    const signedIn = def.access !== 'public';
    // docs/product.md §8/§9: a chunk that never comes (120 s) or fails ends in the error element's reload offer.
    const [Screen, Provider] = await loadChunk(() =>
      Promise.all([screen(), signedIn ? loadQueryProvider() : null, signedIn ? loadScreenTexts() : null]),
    );
    function RouteScreen() {
      return (
        <RouteGate route={def} Provider={Provider}>
          <Screen />
        </RouteGate>
      );
    }
    return { Component: RouteScreen };
  };
}

function loaderOf(def: RouteDef, reads: ScreenDef['reads']) {
  const browser = firstReadsLoader(def, reads);
  return async (args: LoaderFunctionArgs) => {
    const draw = drawContext(args.context);
    const search = new URL(args.request.url).search;
    if (draw) {
      // A read that fails is in the query cache as failed: the server then refuses the page.
      await reads?.({
        client: draw.queryClient,
        userId: draw.me._id,
        params: args.params,
        search,
        server: true,
      });
      return null;
    }
    return browser(args.params, search);
  };
}

/** The screens, one route object each (ids are the paths: the server's and the browser's agree). */
export const screenRoutes: RouteObject[] = ROUTES.map((def) => {
  const { screen, reads } = SCREENS[def.path];
  const route: RouteObject = {
    id: def.path,
    path: def.path,
    handle: def,
    errorElement: <RouteError />,
    HydrateFallback: () => <RouteLoading tall={def.access !== 'public'} />,
  };
  if (!screen) return { ...route, element: <RouteGate route={def} Provider={null} /> };
  return {
    ...route,
    lazy: lazyScreen(def, screen),
    ...(def.access === 'public' ? {} : { loader: loaderOf(def, reads) }),
  };
});

/** docs/product.md §2: any unknown path goes to 404. */
export const notFoundRoute: RouteObject = { id: '*', path: '*', element: <ErrorPageRedirect /> };

/**
 * The route table of docs/product.md §2. Every screen is a lazy module (its own chunk); screens owned by
 * later issues point at small "coming" modules under ./screens until they are built.
 */
import { type TranslationKey } from '../lib/i18n';
import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType, LazyExoticComponent } from 'react';
import { matchPath } from 'react-router';
import { loadHomeScreen, prefetchHome } from './screens/HomeScreen';
import { prefetchPlayer } from './screens/player-prefetch';
import { loadChunk } from '../features/new-version/load-errors';
import { preloadable } from './preloadable';

/**
 * public: anyone (sign-in, reset, legal texts, error pages — reachable from the sign-in footer);
 * user: docs/product.md §2 permission, failure → /login; lesson: same permission, failure → /403.
 */
export type RouteAccess = 'public' | 'user' | 'lesson';

export interface PrefetchContext {
  userId: string;
  pathname: string;
  search: string;
  client?: QueryClient;
}

export interface RouteDef {
  path: string;
  /** Translation key of the route name, used in the page title. */
  titleKey: TranslationKey;
  access: RouteAccess;
  /** Pipe-separated user domains; docs/product.md §2 default applies when absent. */
  permission?: string;
  /** Where to redirect instead of rendering a screen. */
  redirectTo?: string;
  Screen?: ComponentType | LazyExoticComponent<ComponentType>;
  /** Reachable in sandbox mode (docs/product.md §6) without a signed-in user: the back office's preview. */
  sandbox?: boolean;
  /**
   * As the first screen: its reads, into the query cache before it renders (decision 0030), the
   * browser's (no `client`) or the one of a page drawn on the server (decision 0046).
   */
  prefetch?: (context: PrefetchContext) => Promise<unknown>;
}

/** Each screen's loader, to start fetching it before the router renders it (preloadScreen). */
const loaders = new Map<ComponentType | LazyExoticComponent<ComponentType>, () => Promise<unknown>>();

function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ComponentType {
  // Once its code is in (loadScreen), the screen renders at once, without the Suspense fallback:
  // the server's sign-in screen (decision 0026) stays in place instead of flashing a spinner, and
  // a signed-in first screen renders whole in one go (decision 0030).
  // docs/product.md §8/§9: a chunk that never comes (120 s) or fails ends in the error boundary's reload offer.
  const { Component, load: loadCode } = preloadable(
    () => load().then((module) => module[name]),
    (start) => loadChunk(start),
  );
  loaders.set(Component, loadCode);
  return Component;
}

// Composed with the contact feature's action (see screens/HomeScreen).
const Home = screen(loadHomeScreen, 'default');
/** A screen that shows content HTML comes with its cleaner (decision 0033), so it renders whole. */
const withSanitizer = <M extends { sanitizerReady: () => Promise<void> }>(module: M) =>
  module.sanitizerReady().then(() => module);

const Login = screen(() => import('../features/auth/components/LoginPage'), 'LoginPage');
const LegalMentions = screen(
  () => import('../features/legal/components/LegalPage').then(withSanitizer),
  'MentionsPage',
);
const DataProtection = screen(
  () => import('../features/legal/components/LegalPage').then(withSanitizer),
  'DataProtectionPage',
);
const NotFound = screen(() => import('../features/errors/components/NotFoundPage'), 'NotFoundPage');
const Forbidden = screen(() => import('../features/errors/components/ForbiddenPage'), 'ForbiddenPage');
const Account = screen(() => import('../features/account/components/ProfilePage'), 'ProfilePage');
const Reset = screen(() => import('../features/auth/components/ResetPasswordPage'), 'ResetPasswordPage');
const Dashboard = screen(() => import('./screens/DashboardScreen'), 'DashboardScreen');
const CourseNode = screen(() => import('./screens/CourseNodeScreen').then(withSanitizer), 'CourseNodeScreen');
const Player = screen(() => import('./screens/PlayerScreen').then(withSanitizer), 'PlayerScreen');
const PlayerActions = screen(() => import('./screens/PlayerActionsScreen'), 'PlayerActionsScreen');
const PlayerQuestions = screen(() => import('./screens/PlayerQuestionsScreen'), 'PlayerQuestionsScreen');
const Preview = screen(() => import('./screens/PreviewScreen').then(withSanitizer), 'PreviewScreen');
const Correction = screen(() => import('./screens/CorrectionScreen').then(withSanitizer), 'CorrectionScreen');
const Evaluate = screen(() => import('./screens/EvaluateScreen'), 'EvaluateScreen');
const TestBadges = screen(() => import('./screens/TestBadgesScreen'), 'TestBadgesScreen');
const Teaching = screen(() => import('../features/teaching/components/TeachingPage'), 'TeachingPage');

export const ROUTES: readonly RouteDef[] = [
  { path: '/', titleKey: 'routes.home', access: 'user', Screen: Home, prefetch: prefetchHome },
  { path: '/me', titleKey: 'routes.account', access: 'user', Screen: Account },
  { path: '/login', titleKey: 'routes.login', access: 'public', Screen: Login },
  { path: '/reset/:token', titleKey: 'routes.reset', access: 'public', Screen: Reset },
  { path: '/reset', titleKey: 'routes.reset', access: 'public', Screen: Reset },
  { path: '/tableau-de-bord', titleKey: 'routes.dashboard', access: 'user', redirectTo: '/niveaux' },
  { path: '/niveaux', titleKey: 'routes.levels', access: 'user', Screen: Dashboard },
  { path: '/metiers', titleKey: 'routes.jobs', access: 'user', Screen: Dashboard },
  { path: '/statistiques', titleKey: 'routes.stats', access: 'user', Screen: Dashboard },
  { path: '/validations', titleKey: 'routes.certificates', access: 'user', Screen: Dashboard },
  { path: '/logbook', titleKey: 'routes.logbook', access: 'user', Screen: Dashboard },
  { path: '/render/node/:id', titleKey: 'routes.courseNode', access: 'lesson', Screen: CourseNode },
  {
    path: '/session/:id',
    titleKey: 'routes.player',
    access: 'lesson',
    Screen: Player,
    prefetch: prefetchPlayer,
  },
  {
    path: '/session/:id/page/:pageId',
    titleKey: 'routes.player',
    access: 'lesson',
    Screen: Player,
    prefetch: prefetchPlayer,
  },
  { path: '/session/:id/actions', titleKey: 'routes.playerActions', access: 'lesson', Screen: PlayerActions },
  {
    path: '/session/:id/questions',
    titleKey: 'routes.playerQuestions',
    access: 'lesson',
    Screen: PlayerQuestions,
  },
  { path: '/preview', titleKey: 'routes.preview', access: 'lesson', Screen: Preview, sandbox: true },
  { path: '/correction', titleKey: 'routes.correction', access: 'lesson', Screen: Correction },
  { path: '/correction/:pageId', titleKey: 'routes.correction', access: 'lesson', Screen: Correction },
  {
    path: '/correction/:lessonId/page/:pageId',
    titleKey: 'routes.correction',
    access: 'lesson',
    Screen: Correction,
  },
  { path: '/evaluate/:type/:id', titleKey: 'routes.evaluate', access: 'user', Screen: Evaluate },
  { path: '/legal/mentions', titleKey: 'routes.legalMentions', access: 'public', Screen: LegalMentions },
  {
    path: '/legal/protection-des-donnees',
    titleKey: 'routes.dataProtection',
    access: 'public',
    Screen: DataProtection,
  },
  { path: '/404', titleKey: 'routes.notFound', access: 'public', Screen: NotFound },
  { path: '/403', titleKey: 'routes.forbidden', access: 'public', Screen: Forbidden },
  { path: '/test-badges', titleKey: 'routes.testBadges', access: 'user', Screen: TestBadges },
  // A class's teacher: its learners' time accommodation (decision 0019); the API checks the role.
  { path: '/enseignement', titleKey: 'routes.teaching', access: 'user', Screen: Teaching },
  { path: '/enseignement/:classId', titleKey: 'routes.teaching', access: 'user', Screen: Teaching },
];

/** The route of `pathname`, if any. */
export function routeOf(pathname: string): RouteDef | undefined {
  return ROUTES.find((candidate) => matchPath({ path: candidate.path, end: true }, pathname));
}

/**
 * Issue 11: starts downloading the screen of `pathname` at once, while the tenant, the language
 * and the user load, instead of after them (the browser's module cache makes the router's own
 * import reuse it). Returns the route found, if any. A failure is left to the router's import.
 */
export function preloadScreen(pathname: string): RouteDef | undefined {
  const route = routeOf(pathname);
  const load = route?.Screen && loaders.get(route.Screen);
  if (load) void load().catch(() => undefined);
  return route;
}

/** The screen of `pathname` loaded (renders without a fallback); a failure is left to the router. */
export async function loadScreen(pathname: string): Promise<void> {
  const route = routeOf(pathname);
  const load = route?.Screen && loaders.get(route.Screen);
  await load?.().catch(() => undefined);
}

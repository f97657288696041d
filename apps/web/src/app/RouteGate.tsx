import { DEFAULT_PERMISSION, hasPermission } from '@parcours/domain/user-domain';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { preloadable } from './preloadable';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { errorPagePath } from '../lib/error-page';
import { Spinner } from '../components/ui/Spinner';
import { loadScreenTexts, useTranslation } from '../lib/i18n';
import { isSandbox } from '../lib/sandbox';
import { useSession } from '../lib/session';
import { useTenant } from '../lib/tenant';
import { setReturnUrl } from '../lib/storage';
import { ConnectingScreen } from './ConnectingScreen';
import { LOGIN_PATH } from './navigation';
import { RouteMetaContext } from './route-meta';
import type { RouteDef } from './routes';
import { usePageTitle } from './use-page-title';

// Server state only matters once signed in: the query cache loads with the first guarded screen.
// Every signed-in screen renders inside the query provider: it also brings the signed-in
// screens' texts (the /login page loads only the core catalogue, see vite-locale-split.ts).
const loadQueryProvider = () => import('./QueryProvider');
const { Component: QueryProvider, load: loadSignedInLayer } = preloadable(() =>
  Promise.all([loadQueryProvider(), loadScreenTexts()]).then(([m]) => m.QueryProvider),
);

/** Issue 11: what every signed-in screen needs, fetched from the start (see boot). */
export function preloadSignedIn(): void {
  void loadQueryProvider().catch(() => undefined);
}

/** The query library and the signed-in screens' texts in (once the language is known). */
export function loadSignedIn(): Promise<unknown> {
  return loadSignedInLayer();
}
// Only learners with missing required data ever load the gate.
const RequiredDataGate = lazy(() =>
  import('../features/account/components/RequiredDataGate').then((m) => ({ default: m.RequiredDataGate })),
);

/** Sends away from a refused route, remembering it so sign-in can come back (docs/product.md §2). */
function GuardRedirect({ to, from }: { to: string; from: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    setReturnUrl(from);
    void navigate(to, { replace: true });
  }, [navigate, to, from]);
  return null;
}

/**
 * Signed-in screens (the home, the player) are taller than the window once their data is in:
 * while they load, the room of one window is held, so the footer waits below the fold instead
 * of being pushed away when the screen arrives (a layout shift). Public screens are short.
 */
function Loading({ tall, label }: { tall: boolean; label?: string }) {
  const { t } = useTranslation();
  const spinner = <Spinner label={label ?? t('common.loading')} />;
  return tall ? <div className="route-loading">{spinner}</div> : spinner;
}

/**
 * One route of the table: page title, docs/product.md §2 permission check (default 'grains|client|public';
 * failure → /login, or /403 for lesson routes), then the lazily loaded screen.
 */
export function RouteGate({ route }: { route: RouteDef }) {
  usePageTitle(route.titleKey);
  const session = useSession();
  const tenant = useTenant();
  const location = useLocation();

  if (route.redirectTo) return <Navigate to={route.redirectTo} replace />;

  let content: ReactNode = route.Screen ? <route.Screen /> : null;
  // docs/product.md §6 sandbox mode: the back office's preview opens without an account (it writes nothing).
  const sandboxed = route.sandbox === true && isSandbox();
  if (route.access !== 'public' && sandboxed) {
    content = <QueryProvider>{content}</QueryProvider>;
  } else if (route.access !== 'public') {
    // With no network and nothing kept to start from, it says so instead of "connecting" (issue 26).
    if (session.status === 'connecting') return <ConnectingScreen />;
    const allowed =
      session.status === 'authenticated' &&
      hasPermission(session.user?.profile.domain, route.permission ?? DEFAULT_PERMISSION);
    if (!allowed) {
      // Signed out from this screen (decision 0057): to the sign-in screen, and this page is not
      // the next person's page to come back to (storage was cleared; nothing is written again).
      if (session.signedOut) return <Navigate to={LOGIN_PATH} replace />;
      // A session that just ended (a 401: expiry, revocation) is no lack of permission: sign in
      // again and come back here, lesson routes included (decision 0044).
      const to =
        route.access === 'lesson' && session.notice !== 'sessionEnded' ? errorPagePath(403) : LOGIN_PATH;
      return <GuardRedirect to={to} from={`${location.pathname}${location.search}`} />;
    }
    // docs/product.md §5: missing required data or unaccepted terms come before anything else. Public
    // routes (legal texts, sign-in) stay open so the learner can read what they accept.
    const settings = tenant?.attributes.settings;
    if (session.user?.profile.needsRequiredDatas && settings) {
      content = <RequiredDataGate user={session.user} settings={settings} />;
    }
    content = <QueryProvider>{content}</QueryProvider>;
  }

  return (
    <RouteMetaContext.Provider value={route}>
      <Suspense fallback={<Loading tall={route.access !== 'public'} />}>{content}</Suspense>
    </RouteMetaContext.Provider>
  );
}

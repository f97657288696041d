import { DEFAULT_PERMISSION, hasPermission } from '@parcours/domain/user-domain';
import { lazy, Suspense, useEffect, type ComponentType, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useRouteError } from 'react-router';
import { errorPagePath } from '../lib/error-page';
import { Spinner } from '../components/ui/Spinner';
import { useTranslation } from '../lib/i18n';
import { isSandbox } from '../lib/sandbox';
import { useSession } from '../lib/session';
import { useTenant } from '../lib/tenant';
import { setReturnUrl } from '../lib/storage';
import { ConnectingScreen } from './ConnectingScreen';
import { LOGIN_PATH } from './navigation';
import { ErrorBoundary } from './ErrorBoundary';
import { RouteMetaContext, type RouteDef } from './route-meta';
import { usePageTitle } from './use-page-title';

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
export function RouteLoading({ tall, label }: { tall: boolean; label?: string }) {
  const { t } = useTranslation();
  const spinner = <Spinner label={label ?? t('common.loading')} />;
  return tall ? <div className="route-loading">{spinner}</div> : spinner;
}

function Rethrow({ error }: { error: unknown }): never {
  throw error;
}

/**
 * A route whose code failed to load (docs/product.md §8: most often a newer version is live) or
 * whose screen failed to render: the app's error boundary, with its reload offer, in the shell.
 */
export function RouteError() {
  const error = useRouteError();
  return (
    <ErrorBoundary>
      <Rethrow error={error} />
    </ErrorBoundary>
  );
}

type Provider = ComponentType<{ children: ReactNode }>;

/**
 * One route of the table: page title, docs/product.md §2 permission check (default 'grains|client|public';
 * failure → /login, or /403 for lesson routes), then the screen (its route module loaded it, and
 * the signed-in layer's query provider: `Provider`).
 */
export function RouteGate({
  route,
  Provider,
  children,
}: {
  route: RouteDef;
  Provider: Provider | null;
  children?: ReactNode;
}) {
  usePageTitle(route.titleKey);
  const session = useSession();
  const tenant = useTenant();
  const location = useLocation();

  if (route.redirectTo) return <Navigate to={route.redirectTo} replace />;

  let content: ReactNode = children ?? null;
  // docs/product.md §6 sandbox mode: the back office's preview opens without an account (it writes nothing).
  const sandboxed = route.sandbox === true && isSandbox();
  if (route.access !== 'public' && sandboxed) {
    if (Provider) content = <Provider>{content}</Provider>;
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
    if (Provider) content = <Provider>{content}</Provider>;
  }

  return (
    <RouteMetaContext.Provider value={route}>
      <Suspense fallback={<RouteLoading tall={route.access !== 'public'} />}>{content}</Suspense>
    </RouteMetaContext.Provider>
  );
}

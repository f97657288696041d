import { RESET_ALERT_MS } from '@parcours/domain/constants';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { Spinner } from '../../../components/ui/Spinner';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { startSession, useSession } from '../../../lib/session';
import { useTenant } from '../../../lib/tenant';
import { takeReturnUrl } from '../../../app/navigation';
import { getToken } from '../../../lib/storage';
import { SignInForm } from './SignInForm';
import '../../../components/ui/form.css';
import '../auth.css';

// Each mode other than sign-in is its own chunk with its schema, so the first load of /login
// carries only the sign-in form: fewer bytes for a cheap phone to fetch and parse before the
// form the server drew (decision 0026) is the app's; the SSO button loads only for SSO tenants.
const RecoverForm = lazy(() => import('./RecoverForm').then((m) => ({ default: m.RecoverForm })));
const RegisterForm = lazy(() => import('./RegisterForm').then((m) => ({ default: m.RegisterForm })));
const SsoButton = lazy(() => import('./SsoButton').then((m) => ({ default: m.SsoButton })));

/** The /login portal (docs/product.md §2) switches between modes with `?mode=`. */
type PortalMode = 'signin' | 'recover' | 'register';
const MODES: Record<PortalMode, { titleKey: TranslationKey; introKey: TranslationKey }> = {
  signin: { titleKey: 'login.title', introKey: 'login.intro' },
  recover: { titleKey: 'recover.title', introKey: 'recover.intro' },
  register: { titleKey: 'register.title', introKey: 'register.intro' },
};

/** Set by the reset screen when the new password was saved (docs/product.md §8, shown 7 s). */
export interface LoginLocationState {
  passwordReset?: boolean;
}

function useTimedFlag(initial: boolean, ms: number): boolean {
  const [on, setOn] = useState(initial);
  useEffect(() => {
    if (!on) return undefined;
    const timer = setTimeout(() => setOn(false), ms);
    return () => clearTimeout(timer);
  }, [on, ms]);
  return on;
}

export function LoginPage() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const leaving = useRef(false);
  const settings = tenant?.attributes.settings;
  const internal = settings?.login.internal ?? true;
  const oidc = settings?.login.oidc ?? null;
  const canRegister = internal && (settings?.invitationCodes.enabled ?? false);

  const requested = params.get('mode');
  let mode: PortalMode = 'signin';
  if (requested === 'recover' && internal) mode = 'recover';
  if (requested === 'register' && canRegister) mode = 'register';

  const passwordReset = useTimedFlag(
    (location.state as LoginLocationState | null)?.passwordReset === true,
    RESET_ALERT_MS,
  );

  // Someone already signed in has nothing to do here: continue where they were going.
  useEffect(() => {
    if (session.status === 'authenticated' && !leaving.current) {
      leaving.current = true;
      void navigate(takeReturnUrl(), { replace: true });
    }
  }, [session.status, navigate]);

  const onSignedIn = async (token: string, userId: string) => {
    const next = await startSession(token, userId);
    return next.status === 'authenticated';
  };

  // A stored token is being checked: the learner is probably signed in and about to be sent on, so
  // the form would only flash (decision 0026); it shows if the token turns out to be refused.
  if (session.status === 'connecting' && getToken() !== null) {
    return <Spinner label={t('session.connecting')} />;
  }

  const notice = session.notice;
  const ssoFailed = params.get('sso') === 'failed';

  return (
    <div className="page page--narrow login">
      <div className="card login__card">
        <p className="login__tenant">{tenant?.attributes.name || t('app.fallbackTitle')}</p>
        <h1 className="login__title">{t(MODES[mode].titleKey)}</h1>
        <p className="login__intro">{t(MODES[mode].introKey)}</p>
        {passwordReset ? <Alert tone="success">{t('reset.success')}</Alert> : null}
        {notice ? <Alert tone="warning">{t(`session.notice.${notice}`)}</Alert> : null}
        {ssoFailed && mode === 'signin' ? (
          <Alert tone="error" title={t('login.failureTitle')}>
            <p>{t('login.sso.failed')}</p>
          </Alert>
        ) : null}

        <Suspense fallback={<Spinner label={t('common.loading')} />}>
          {mode === 'recover' ? <RecoverForm /> : null}
          {mode === 'register' ? <RegisterForm onSignedIn={onSignedIn} /> : null}
          {mode === 'signin' && oidc && tenant ? (
            <SsoButton contextId={tenant.id} label={oidc.label} />
          ) : null}
        </Suspense>
        {mode === 'signin' && internal ? <SignInForm onSignedIn={onSignedIn} /> : null}

        <nav className="login__modes" aria-label={t('login.modesNav')}>
          <ul>
            {mode !== 'signin' ? (
              <li>
                <Link to="/login">{t('login.backToSignIn')}</Link>
              </li>
            ) : null}
            {mode === 'signin' && internal ? (
              <li>
                <Link to="/login?mode=recover">{t('login.forgotPassword')}</Link>
              </li>
            ) : null}
            {mode === 'signin' && canRegister ? (
              <li>
                <Link to="/login?mode=register">{t('login.registerWithCode')}</Link>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </div>
  );
}

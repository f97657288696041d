import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '../../../components/ui/Alert';
import { useTranslation } from '../../../lib/i18n';
import { startSession, useSession } from '../../../lib/session';
import { useTenant } from '../../../lib/tenant';
import { takeReturnUrl } from '../../../app/navigation';
import { SignInForm } from './SignInForm';
import '../auth.css';

/**
 * The /login portal (SPEC §2) switches between modes with `?mode=`. Only sign-in exists in this
 * issue; recover and register (invitation code) plug in here as further entries.
 */
type PortalMode = 'signin';
const MODES: Record<PortalMode, { titleKey: string }> = { signin: { titleKey: 'login.title' } };

export function LoginPage() {
  const { t } = useTranslation();
  const tenant = useTenant();
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const requested = params.get('mode');
  const mode: PortalMode = requested && requested in MODES ? (requested as PortalMode) : 'signin';
  const leaving = useRef(false);

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

  const notice = session.notice;

  return (
    <div className="page page--narrow login">
      <div className="card login__card">
        <p className="login__tenant">{tenant?.attributes.name || t('app.fallbackTitle')}</p>
        <h1 className="login__title">{t(MODES[mode].titleKey)}</h1>
        <p className="login__intro">{t('login.intro')}</p>
        {notice ? <Alert tone="warning">{t(`session.notice.${notice}`)}</Alert> : null}
        <SignInForm onSignedIn={onSignedIn} />
      </div>
    </div>
  );
}

import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { useAfterFirstScreen } from '../lib/after-first-screen';
import { useTranslation } from '../lib/i18n';
import { registerServiceWorkerLater } from '../lib/service-worker';
import { useSession } from '../lib/session';
import { useTenant } from '../lib/tenant';
import { InstallOffer } from '../features/install/InstallOffer';
import { NewVersionBanner } from '../features/new-version/NewVersionBanner';
import { BrowserNotice } from './BrowserNotice';
import { UserMenuTrigger } from './UserMenuTrigger';
import './shell.css';

// Answers kept offline are sent from any screen once signed in (decision 0020); never on /login.
// Issue 11: it (and its offline banner) loads once the first screen is shown, not before it.
const OfflineSync = lazy(() =>
  import('../features/player/offline/OfflineSync').then((m) => ({ default: m.OfflineSync })),
);

/** Layout of every screen: skip link, banner with the tenant's logo and name, main, footer. */
export function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const tenant = useTenant();
  const session = useSession();
  const signedIn = session.status === 'authenticated';
  const afterFirstScreen = useAfterFirstScreen();
  useEffect(() => {
    if (signedIn) registerServiceWorkerLater();
  }, [signedIn]);
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstPath = useRef(pathname);

  // After an in-app navigation, start screen readers and keyboards at the new content.
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = pathname;
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  const name = tenant?.attributes.name || t('app.fallbackTitle');
  const logo = tenant?.attributes.assets.logo;

  return (
    <div className={signedIn ? 'shell shell--signed-in' : 'shell'}>
      <a className="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header className="shell__header">
        <div className="shell__bar">
          <Link to="/" className="brand">
            {logo ? <img className="brand__logo" src={logo} alt="" height={40} fetchPriority="low" /> : null}
            <span className="brand__name">{name}</span> <span className="sr-only">{t('shell.homeLink')}</span>
          </Link>
          {session.status === 'authenticated' && session.user ? (
            <UserMenuTrigger user={session.user} />
          ) : null}
        </div>
        <BrowserNotice />
        <NewVersionBanner />
      </header>
      <main id="main" ref={mainRef} tabIndex={-1} className="shell__main">
        {signedIn && afterFirstScreen ? (
          <Suspense fallback={null}>
            <OfflineSync showBanner={!pathname.startsWith('/session/')} />
          </Suspense>
        ) : null}
        {children}
      </main>
      <footer className="shell__footer">
        <nav aria-label={t('shell.footerNav')}>
          <ul className="shell__footer-links">
            <li>
              <Link to="/legal/mentions">{t('shell.legalMentions')}</Link>
            </li>
            <li>
              <Link to="/legal/protection-des-donnees">{t('shell.dataProtection')}</Link>
            </li>
          </ul>
        </nav>
      </footer>
      <InstallOffer />
    </div>
  );
}

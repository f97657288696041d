import { useState } from 'react';
import { isSupportedBrowser } from '../lib/browser-support';
import { useTranslation } from '../lib/i18n';
import { dismissBrowserNotice, isBrowserNoticeDismissed } from '../lib/storage';

function browserUserAgent(): string | null {
  return typeof navigator === 'undefined' ? null : navigator.userAgent;
}

/** SPEC §2/§9: tells learners on an unsupported browser which two browsers to use; dismissible, remembered. */
export function BrowserNotice({ userAgent = browserUserAgent() }: { userAgent?: string | null }) {
  const { t } = useTranslation();
  // No user agent: the server's HTML of the sign-in screen (decision 0026); the browser decides.
  const [hidden, setHidden] = useState(
    () => userAgent === null || isSupportedBrowser(userAgent) || isBrowserNoticeDismissed(),
  );
  if (hidden) return null;
  return (
    <section className="browser-notice" aria-labelledby="browser-notice-title">
      <div className="browser-notice__inner">
        <div>
          <h2 id="browser-notice-title" className="browser-notice__title">
            {t('browserNotice.title')}
          </h2>
          <p className="browser-notice__text">{t('browserNotice.text')}</p>
        </div>
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => {
            dismissBrowserNotice();
            setHidden(true);
          }}
        >
          {t('browserNotice.dismiss')}
        </button>
      </div>
    </section>
  );
}

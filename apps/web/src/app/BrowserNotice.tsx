import { useState, useSyncExternalStore } from 'react';
import { isSupportedBrowser } from '../lib/browser-support';
import { useTranslation } from '../lib/i18n';
import { dismissBrowserNotice, isBrowserNoticeDismissed } from '../lib/storage';

const noSubscription = () => () => undefined;
const browserUserAgent = (): string | null => navigator.userAgent;
// The server's HTML (decision 0026), and the hydration over it, show no notice: the browser decides.
const serverUserAgent = (): string | null => null;

/** docs/product.md §2/§9: tells learners on an unsupported browser which two browsers to use; dismissible, remembered. */
export function BrowserNotice({ userAgent: given }: { userAgent?: string | null }) {
  const { t } = useTranslation();
  const found = useSyncExternalStore(noSubscription, browserUserAgent, serverUserAgent);
  const userAgent = given === undefined ? found : given;
  const [dismissed, setDismissed] = useState(isBrowserNoticeDismissed);
  if (userAgent === null || isSupportedBrowser(userAgent) || dismissed) return null;
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
            setDismissed(true);
          }}
        >
          {t('browserNotice.dismiss')}
        </button>
      </div>
    </section>
  );
}

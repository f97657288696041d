import { Spinner } from '../components/ui/Spinner';
import { useTranslation } from '../lib/i18n';
import { useOnline } from '../lib/use-online';

/**
 * A signed-in route while the learner is still being loaded. Online the wait is short and a
 * spinner says it to screen readers; offline, with nothing kept on the device to start from, it
 * may last, so the reason is written on the screen for everyone (issue 37), and the screen
 * follows the connection (the session loads again when it returns: lib/session.ts).
 */
export function ConnectingScreen() {
  const { t } = useTranslation();
  const online = useOnline();
  return (
    <div className="route-loading">
      <Spinner label={t(online ? 'session.connecting' : 'session.offline')} showLabel={!online} />
    </div>
  );
}

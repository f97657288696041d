import { useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { LOGIN_PATH } from '../../../app/navigation';
import { errorCodeOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { useNavigate } from 'react-router';
import { getSignOutGuard, signOut } from '../../../lib/session';
import { signOutEverywhere } from '../api/sign-out-everywhere';

/**
 * "Sign out of every device" on the account screen (issue 29): a lost phone or a shared computer
 * keeps no working session. As the menu's sign-out, the answers waiting on this device are sent
 * first (or their loss confirmed, decision 0013); then the server revokes every session, this one
 * included, and this device forgets the user.
 */
export function SignOutEverywhere() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [state, setState] = useState<'idle' | 'busy' | { error: string }>('idle');

  const run = async () => {
    setState('busy');
    const guard = getSignOutGuard();
    if (guard && !(await guard().catch(() => true))) {
      setState('idle');
      return;
    }
    try {
      await signOutEverywhere();
    } catch (error) {
      setState({ error: errorCodeOf(error) });
      return;
    }
    // The token is revoked already; this also clears the HTML cookie (decision 0057).
    signOut();
    void navigate(LOGIN_PATH);
  };

  return (
    <section className="card account__data" aria-labelledby="account-sessions-title">
      <h2 id="account-sessions-title">{t('account.sessions.title')}</h2>
      <p>{t('account.sessions.text')}</p>
      {typeof state === 'object' ? (
        <Alert tone="error" title={t('account.errorTitle')}>
          <p>{t(errorKeys(state.error).title)}</p>
        </Alert>
      ) : null}
      <Button variant="secondary" disabled={state === 'busy'} onClick={() => void run()}>
        {t('account.sessions.button')}
      </Button>
    </section>
  );
}

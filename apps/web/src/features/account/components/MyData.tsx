import { useState } from 'react';
import { Alert } from '../../../components/ui/Alert';
import { Button } from '../../../components/ui/Button';
import { errorCodeOf } from '../../../lib/api-errors';
import { errorKeys, useTranslation } from '../../../lib/i18n';
import { fetchDataExport, saveJsonFile } from '../api/data-export';

/**
 * "My data" on the account screen (issue 29, GDPR articles 15 and 20): the learner downloads
 * everything the organisation holds about them as one JSON file.
 */
export function MyData() {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'loading' | 'done' | { error: string }>('idle');

  const download = async () => {
    setState('loading');
    try {
      const data = await fetchDataExport();
      saveJsonFile(data, `parcours-data-${new Date().toISOString().slice(0, 10)}.json`);
      setState('done');
    } catch (error) {
      setState({ error: errorCodeOf(error) });
    }
  };

  return (
    <section className="card account__data" aria-labelledby="account-data-title">
      <h2 id="account-data-title">{t('account.data.title')}</h2>
      <p>{t('account.data.text')}</p>
      {state === 'done' ? <Alert tone="success">{t('account.data.done')}</Alert> : null}
      {typeof state === 'object' ? (
        <Alert tone="error" title={t('account.errorTitle')}>
          <p>{t(errorKeys(state.error).title)}</p>
        </Alert>
      ) : null}
      <Button variant="secondary" disabled={state === 'loading'} onClick={() => void download()}>
        {state === 'loading' ? t('account.data.loading') : t('account.data.download')}
      </Button>
    </section>
  );
}

import { COUNTDOWN_ENDING_S, COUNTDOWN_WARNING_S } from '@parcours/domain/constants';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { formatClock } from './format-clock';

/**
 * A countdown the learner starts and pauses (a `widgets` row): for timed activities on the page
 * that the server does not measure. The seconds are not announced; 20 s before the end is, once,
 * while it runs (RGAA 13.1, decision 0019), and so is the end.
 */
export function CountdownWidget({ seconds }: { seconds: number }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(seconds);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(() => {
      setLeft((value) => {
        if (value <= 1) setRunning(false);
        return Math.max(0, value - 1);
      });
    }, 1000);
    return () => clearInterval(timer);
  }, [running]);

  return (
    <div className="countdown-widget">
      <span
        role="timer"
        aria-label={t('widgets.countdown.label')}
        className={`countdown-widget__time${left <= COUNTDOWN_ENDING_S ? ' is-ending' : left <= COUNTDOWN_WARNING_S ? ' is-warning' : ''}`}
      >
        {formatClock(left)}
      </span>
      <button
        type="button"
        className="btn btn--secondary"
        aria-pressed={running}
        disabled={left === 0}
        onClick={() => setRunning((r) => !r)}
      >
        {running ? t('widgets.countdown.pause') : t('widgets.countdown.start')}
      </button>
      <button
        type="button"
        className="btn btn--ghost"
        onClick={() => {
          setRunning(false);
          setLeft(seconds);
        }}
      >
        {t('widgets.countdown.reset')}
      </button>
      <span role="status" className="sr-only">
        {left === 0
          ? t('widgets.countdown.ended')
          : running && left <= COUNTDOWN_WARNING_S
            ? t('widgets.countdown.warning', { count: COUNTDOWN_WARNING_S })
            : ''}
      </span>
    </div>
  );
}

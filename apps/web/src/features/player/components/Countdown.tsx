import { COUNTDOWN_ENDING_S } from '@parcours/domain/constants';
import { useTranslation } from '../../../lib/i18n';
import { formatClock } from '../format-clock';
import { useCountdown } from '../use-countdown';

interface CountdownProps {
  /** Seconds left when this countdown (re)starts, from the server's clock in page mode. */
  seconds: number;
  /** Restarts the countdown when it changes (page id, start time). */
  restartKey: string;
  onEnded: () => void;
}

/**
 * SPEC §4 countdown: 'ending' at 5 s or fewer, 'ended' at 0, ended event 0.5 s later. Screen
 * readers hear the two moments that matter, not every second.
 */
export function Countdown({ seconds, restartKey, onEnded }: CountdownProps) {
  const { t } = useTranslation();
  const countdown = useCountdown(seconds, restartKey, onEnded);
  if (!countdown) return null;
  const { remaining, phase } = countdown;
  return (
    <div className={`countdown countdown--${phase}`} data-phase={phase}>
      <span aria-hidden="true" className="countdown__icon">
        ⏳
      </span>
      <span role="timer" aria-label={t('player.countdown.label')} className="countdown__time">
        {formatClock(remaining)}
      </span>
      <span className="sr-only" aria-live="assertive">
        {phase === 'ending'
          ? t('player.countdown.ending', { count: COUNTDOWN_ENDING_S })
          : phase === 'ended'
            ? t('player.countdown.ended')
            : ''}
      </span>
    </div>
  );
}

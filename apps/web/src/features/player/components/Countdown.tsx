import { COUNTDOWN_ENDING_S, COUNTDOWN_WARNING_S } from '@parcours/domain/constants';
import { useTranslation, type TranslationKey } from '../../../lib/i18n';
import { formatClock } from '../format-clock';
import { useCountdown } from '../use-countdown';

/**
 * Which clock this is. 'exercise' and 'lesson' name themselves because both can show at once;
 * 'plain' is the only clock on screen (node mode, a page of an untimed lesson).
 */
export type CountdownScope = 'plain' | 'exercise' | 'lesson';

const TEXTS: Record<
  CountdownScope,
  { label: TranslationKey; caption: TranslationKey | null; ending: TranslationKey; ended: TranslationKey }
> = {
  plain: {
    label: 'player.countdown.label',
    caption: null,
    ending: 'player.countdown.ending',
    ended: 'player.countdown.ended',
  },
  exercise: {
    label: 'player.countdown.exerciseLabel',
    caption: 'player.countdown.exerciseCaption',
    ending: 'player.countdown.ending',
    ended: 'player.countdown.ended',
  },
  lesson: {
    label: 'player.countdown.lessonLabel',
    caption: 'player.countdown.lessonCaption',
    ending: 'player.countdown.lessonEnding',
    ended: 'player.countdown.lessonEnded',
  },
};

interface CountdownProps {
  /** Seconds left when this countdown (re)starts, from the server's clock in page mode. */
  seconds: number;
  /** Restarts the countdown when it changes (page id, start time). */
  restartKey: string;
  onEnded: () => void;
  scope?: CountdownScope;
}

/**
 * docs/product.md §4 countdown: 'ending' at 5 s or fewer, 'ended' at 0, ended event 0.5 s later. Screen
 * readers hear the moments that matter, not every second: 20 s before the end, politely and once
 * (RGAA 13.1, decision 0019: time to ask for more or to finish), then the end. The lesson's clock
 * speaks politely throughout: it runs for the whole lesson and must not cut into what the learner
 * is reading.
 */
export function Countdown({ seconds, restartKey, onEnded, scope = 'plain' }: CountdownProps) {
  const { t } = useTranslation();
  const countdown = useCountdown(seconds, restartKey, onEnded);
  if (!countdown) return null;
  const { remaining, phase, warned } = countdown;
  const texts = TEXTS[scope];
  return (
    <div className={`countdown countdown--${phase} countdown--${scope}`} data-phase={phase}>
      <span aria-hidden="true" className="countdown__icon">
        {scope === 'lesson' ? '⌛' : '⏳'}
      </span>
      {/* Sighted learners tell the two clocks apart by this caption; the timer's label says it to the others. */}
      {texts.caption ? (
        <span aria-hidden="true" className="countdown__caption">
          {t(texts.caption)}
        </span>
      ) : null}
      <span role="timer" aria-label={t(texts.label)} className="countdown__time">
        {formatClock(remaining)}
      </span>
      <span className="sr-only" aria-live={scope === 'lesson' ? 'polite' : 'assertive'}>
        {phase === 'ending'
          ? t(texts.ending, { count: COUNTDOWN_ENDING_S })
          : phase === 'ended'
            ? t(texts.ended)
            : ''}
      </span>
      <span className="sr-only" aria-live="polite">
        {warned ? t(texts.ending, { count: COUNTDOWN_WARNING_S }) : ''}
      </span>
    </div>
  );
}

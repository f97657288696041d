import { RADIAL_SCORE_DELAY_MS } from '@parcours/domain/constants';
import { progressColor } from '@parcours/domain/progress';
import { useEffect, useState } from 'react';
import { useMediaQuery } from '../../../lib/use-media-query';

const RADIUS = 52;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

interface RadialScoreProps {
  /** 0..100, already floored (domain scorePercent). */
  percent: number;
  /** The whole score as a sentence, already translated: "Score : 84 %". */
  label: string;
  /** The number shown in the middle, already translated: "84 %". */
  valueText: string;
  className?: string;
}

/**
 * The lesson score as a ring (docs/product.md §2, §9: it fills 500 ms after the screen shows, so the eye
 * catches it). One image with a text alternative for screen readers; with reduced motion the
 * ring is drawn full at once.
 */
export function RadialScore({ percent, label, valueText, className }: RadialScoreProps) {
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [started, setStarted] = useState(false);
  const clamped = Math.max(0, Math.min(100, percent));

  useEffect(() => {
    if (reducedMotion) return undefined;
    const timer = setTimeout(() => setStarted(true), RADIAL_SCORE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [reducedMotion]);

  const filled = reducedMotion || started;
  const offset = CIRCUMFERENCE * (1 - (filled ? clamped : 0) / 100);
  return (
    <div
      role="img"
      aria-label={label}
      className={['radial-score', `radial-score--${progressColor(clamped / 100)}`, className]
        .filter(Boolean)
        .join(' ')}
      data-filled={filled ? 'true' : 'false'}
    >
      <svg viewBox="0 0 120 120" aria-hidden="true" focusable="false" className="radial-score__ring">
        <circle className="radial-score__track" cx="60" cy="60" r={RADIUS} />
        <circle
          className="radial-score__bar"
          cx="60"
          cy="60"
          r={RADIUS}
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={offset}
          transform="rotate(-90 60 60)"
        />
      </svg>
      <span className="radial-score__value" aria-hidden="true">
        {valueText}
      </span>
    </div>
  );
}

import { progressColor } from '@parcours/domain/progress';

interface ProgressBarProps {
  /** 0..100 */
  value: number;
  /** Accessible name, e.g. "Progress of Fractions". */
  label: string;
  /** Spoken value, e.g. "40% completed". */
  valueText: string;
  className?: string;
}

export function ProgressBar({ value, label, valueText, className }: ProgressBarProps) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      aria-valuetext={valueText}
      className={['progress', `progress--${progressColor(clamped / 100)}`, className]
        .filter(Boolean)
        .join(' ')}
    >
      <span className="progress__fill" style={{ width: `${clamped}%` }} />
    </div>
  );
}

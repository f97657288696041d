import { useTranslation } from '../../lib/i18n';
import './correction-mark.css';

/** How an item of the learner's answer compares with the expected one (correction mode). */
/** `partial`: a row that earned some of its points, neither right nor wrong (row verdicts only). */
export type CorrectionStatus = 'correct' | 'partial' | 'wrong' | 'missing' | 'neutral';

const ICONS: Record<CorrectionStatus, string> = {
  correct: '✓',
  partial: '◐',
  wrong: '✗',
  missing: '◎',
  neutral: '',
};

/**
 * Never colour alone: an icon and a short text say what the colour says, and the text is read
 * by screen readers.
 */
export function CorrectionMark({ status, className }: { status: CorrectionStatus; className?: string }) {
  const { t } = useTranslation();
  if (status === 'neutral') return null;
  return (
    <span className={['correction-mark', `correction-mark--${status}`, className].filter(Boolean).join(' ')}>
      <span aria-hidden="true" className="correction-mark__icon">
        {ICONS[status]}
      </span>
      <span className="correction-mark__text">{t(`exercises.correction.${status}`)}</span>
    </span>
  );
}

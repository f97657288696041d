import { CorrectionMark } from '../../../components/ui/CorrectionMark';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { asText } from '../shared/answers';

/**
 * The server's bound (domain MAX_FREE_ANSWER_LENGTH), restated so zod stays out of the player
 * chunk; player/page-rows.test.ts checks they agree.
 */
export const FREE_ANSWER_MAX = 1000;

/** Default field width (docs/product.md §9), widened by the row's `defaultWidth` when it sets one. */
const DEFAULT_WIDTH_PX = 175;

/**
 * free-answer: one labelled text field. Number rows open the phone's decimal keypad. Enter in
 * the field moves on (the player's Enter rule). Answer: the typed text.
 */
export function FreeAnswer({ row, idPrefix, labelledBy, value, onChange, readOnly, correction }: RowProps) {
  const { t } = useTranslation();
  const id = `${idPrefix}-input`;
  const numeric = row.inputMode === 'decimal' || row.inputMode === 'numeric';
  const width = Number(row.settings?.defaultWidth) || DEFAULT_WIDTH_PX;
  const placeholder = typeof row.placeholder === 'string' ? row.placeholder : undefined;
  const detail = correction?.type === 'free-answer' ? correction.detail : null;
  type Detail = NonNullable<typeof detail>;
  // While a retry can still be graded the server withholds the expected answer (decision 0009).
  const expectedOf = (d: Detail) => (d.kind === 'number' ? d.value !== undefined : d.accepted !== undefined);
  const expectedText = (d: Detail) =>
    d.kind === 'number'
      ? (d.tolerance ?? 0) > 0
        ? t('exercises.freeAnswer.expectedNumberTolerance', { value: d.value, tolerance: d.tolerance })
        : t('exercises.freeAnswer.expectedNumber', { value: d.value })
      : t('exercises.freeAnswer.expectedText', { value: (d.accepted ?? []).join(' / ') });

  return (
    <div className="free-answer">
      <input
        id={id}
        type="text"
        className="free-answer__input"
        aria-labelledby={`${labelledBy} ${id}-label`}
        inputMode={numeric ? 'decimal' : 'text'}
        autoComplete="off"
        spellCheck={!numeric}
        maxLength={FREE_ANSWER_MAX}
        placeholder={placeholder}
        value={asText(value)}
        readOnly={readOnly}
        style={{ width: `min(100%, ${Math.max(width, DEFAULT_WIDTH_PX)}px)` }}
        onChange={(event) => onChange(event.target.value)}
      />
      <span id={`${id}-label`} hidden>
        {t('exercises.freeAnswer.label')}
      </span>
      {correction && detail ? (
        <p className="free-answer__correction">
          <CorrectionMark status={correction.correct ? 'correct' : 'wrong'} />{' '}
          {correction.correct || !expectedOf(detail) ? null : <span>{expectedText(detail)}</span>}
        </p>
      ) : null}
    </div>
  );
}

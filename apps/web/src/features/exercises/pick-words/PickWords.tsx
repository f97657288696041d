import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CorrectionStatus } from '../../../components/ui/CorrectionMark';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { asIndexList, itemStatuses } from '../shared/answers';
import { segmentsOf } from './tokenize';

const ICONS = { correct: '✓', wrong: '✗', missing: '◎' } as const;
const marked = (status: CorrectionStatus): status is keyof typeof ICONS => status in ICONS;

/**
 * pick-words: every word of the text is a toggle button (aria-pressed). One Tab stop for the
 * whole text; arrow keys, Home and End move between words, Space or Enter toggles.
 * Answer: the positions of the picked words.
 */
export function PickWords({
  row,
  idPrefix,
  labelledBy,
  value,
  onChange,
  readOnly,
  correction,
  announce,
}: RowProps) {
  const { t } = useTranslation();
  const words = useMemo(() => (Array.isArray(row.words) ? row.words.map(String) : []), [row.words]);
  const segments = useMemo(() => segmentsOf(row.text, words), [row.text, words]);
  const picked = asIndexList(value);
  const statuses = itemStatuses(correction);
  const [focused, setFocused] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const toggle = (position: number) => {
    const on = !picked.includes(position);
    const next = on ? [...picked, position] : picked.filter((p) => p !== position);
    onChange(next.sort((a, b) => a - b));
    announce(
      t(on ? 'exercises.pickWords.picked' : 'exercises.pickWords.unpicked', {
        word: words[position] ?? '',
        count: next.length,
      }),
    );
  };

  const move = (event: KeyboardEvent, position: number) => {
    const last = words.length - 1;
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? Math.min(last, position + 1)
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? Math.max(0, position - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (to === null) return;
    event.preventDefault();
    setFocused(to);
    buttons.current[to]?.focus();
  };

  return (
    <div className="pick-words">
      <p id={`${idPrefix}-help`} className="pick-words__help">
        {t('exercises.pickWords.help')}
      </p>
      <div
        role="group"
        aria-labelledby={labelledBy}
        aria-describedby={`${idPrefix}-help`}
        className="pick-words__text"
      >
        {segments.map((segment, i) => {
          if (segment.kind === 'text') return <span key={i}>{segment.text}</span>;
          const { position } = segment;
          const status = (statuses[position] ?? 'neutral') as CorrectionStatus;
          const pressed = picked.includes(position);
          return (
            <button
              key={i}
              ref={(element) => {
                buttons.current[position] = element;
              }}
              type="button"
              className={`pick-words__word${pressed ? ' is-picked' : ''} is-${status}`}
              aria-pressed={pressed}
              aria-disabled={readOnly || undefined}
              tabIndex={position === Math.min(focused, words.length - 1) ? 0 : -1}
              onFocus={() => setFocused(position)}
              onKeyDown={(event) => move(event, position)}
              onClick={() => {
                if (!readOnly) toggle(position);
              }}
            >
              {segment.text}
              {marked(status) ? (
                <span className="pick-words__mark">
                  <span aria-hidden="true"> {ICONS[status]}</span>
                  <span className="sr-only"> ({t(`exercises.correction.${status}`)})</span>
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
    </div>
  );
}

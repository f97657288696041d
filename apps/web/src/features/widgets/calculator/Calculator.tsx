import type { KeysUnder } from '../../../lib/i18n-keys';
import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import {
  initialCalc,
  keyFromKeyboard,
  press,
  type CalcFunction,
  type CalcKey,
  type Operator,
} from './calculator';
import '../widgets.css';

/** docs/product.md §4: the window opens 120 px from the top and 50 px from the right. */
const START = { top: 120, right: 50 };

/** Keys in reading order of a 4-column pad. */
const GRID = ['C', '±', '÷', '×', '7', '8', '9', '−', '4', '5', '6', '+', '1', '2', '3', '=', '0', ','];
const OPERATOR_OF: Record<string, Operator> = { '÷': '/', '×': '*', '−': '-', '+': '+' };
/** Spoken names of the keys whose symbol screen readers read badly. */
const NAME_OF: Record<string, KeysUnder<'widgets.calculator'>> = {
  C: 'clear',
  '±': 'sign',
  '÷': 'divide',
  '×': 'multiply',
  '−': 'subtract',
  '+': 'add',
  '=': 'equals',
  ',': 'dot',
};
const FUNCTIONS: CalcFunction[] = ['sqrt', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan'];

/**
 * A floating, non-modal calculator: the learner keeps working on the page beside it. Typed
 * keys work while focus is inside; the window moves by dragging its title bar (mouse or touch).
 */
export function Calculator({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [state, setState] = useState(initialCalc);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const drag = useRef<{ x: number; y: number; ox: number; oy: number } | null>(null);

  const key = (k: CalcKey) => setState((s) => press(s, k));

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
      return;
    }
    // Enter on a calculator button presses that button, not "=".
    if (event.key === 'Enter' && event.target instanceof HTMLButtonElement) {
      event.stopPropagation();
      return;
    }
    const k = keyFromKeyboard(event.key);
    if (!k) return;
    event.preventDefault();
    event.stopPropagation();
    key(k);
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    // Presses on the close button (or anything in it) are clicks, not drags.
    if (event.button !== 0 || (event.target as Element).closest('button')) return;
    drag.current = { x: event.clientX, y: event.clientY, ox: offset.x, oy: offset.y };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = drag.current;
    if (!start) return;
    setOffset({ x: start.ox + event.clientX - start.x, y: start.oy + event.clientY - start.y });
  };
  const endDrag = () => {
    drag.current = null;
  };

  return (
    // The window takes typed keys while focus is inside it (docs/product.md §5 allowed keys).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <section
      role="dialog"
      aria-labelledby={titleId}
      className="calc"
      style={{ top: START.top + offset.y, right: START.right - offset.x }}
      onKeyDown={onKeyDown}
    >
      <header
        className="calc__bar"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <h2 id={titleId} className="calc__title">
          {t('widgets.calculator.title')}
        </h2>
        <button
          type="button"
          className="calc__close"
          onClick={onClose}
          aria-label={t('widgets.calculator.close')}
        >
          <span aria-hidden="true">×</span>
        </button>
      </header>
      <output className="calc__display" aria-live="polite" aria-label={t('widgets.calculator.display')}>
        {state.display}
      </output>
      <div className="calc__functions">
        {FUNCTIONS.map((name) => (
          <button
            key={name}
            type="button"
            className="calc__key calc__key--fn"
            // WCAG 2.5.3 label in name: the name starts with what the key shows ("sin"), so a
            // speech user saying "click sin" reaches it; the meaning follows.
            aria-label={
              name === 'sqrt'
                ? t('widgets.calculator.fn.sqrt')
                : `${name} — ${t(`widgets.calculator.fn.${name}`)}`
            }
            onClick={() => key({ kind: 'function', name })}
          >
            {name === 'sqrt' ? '√' : name}
          </button>
        ))}
      </div>
      <div className="calc__keys">
        {GRID.map((cell) => {
          const k: CalcKey =
            cell === 'C'
              ? { kind: 'clear' }
              : cell === '±'
                ? { kind: 'sign' }
                : cell === ','
                  ? { kind: 'dot' }
                  : cell === '='
                    ? { kind: 'equals' }
                    : cell in OPERATOR_OF
                      ? { kind: 'operator', operator: OPERATOR_OF[cell]! }
                      : { kind: 'digit', digit: cell };
          const nameKey = NAME_OF[cell];
          return (
            <button
              key={cell}
              type="button"
              className={`calc__key${cell === '=' ? ' calc__key--equals' : ''}${cell === '0' ? ' calc__key--wide' : ''}`}
              // Label in name: a key showing letters ("C") is named by them first; symbols (+, ±)
              // are named by their meaning alone.
              aria-label={
                nameKey
                  ? /^[a-z]+$/i.test(cell)
                    ? `${cell} — ${t(`widgets.calculator.${nameKey}`)}`
                    : t(`widgets.calculator.${nameKey}`)
                  : undefined
              }
              onClick={() => key(k)}
            >
              {cell}
            </button>
          );
        })}
      </div>
    </section>
  );
}

import { useLayoutEffect, useRef, useState, type CSSProperties, type PointerEvent } from 'react';
import { CorrectionMark, type CorrectionStatus } from '../../../components/ui/CorrectionMark';
import { htmlToText, RichText } from '../../../components/ui/RichText';
import { useTranslation } from '../../../lib/i18n';
import type { RowProps } from '../row-props';
import { asTargetLists } from '../shared/answers';
import { displayOrder } from '../shared/order';

/** Pixels a pointer must travel before a press becomes a drag (a tap stays a tap). */
const DRAG_THRESHOLD = 6;
const POOL = 'pool';

interface DragState {
  choice: number;
  x: number;
  y: number;
  over: string | null;
}

interface DragItem {
  status: CorrectionStatus;
  placed: number | null;
  expected: number | null;
}

function dropZoneAt(x: number, y: number): string | null {
  const element = document.elementFromPoint(x, y);
  return element?.closest<HTMLElement>('[data-drop]')?.dataset.drop ?? null;
}

/**
 * drag-n-drop: each label is dragged with a mouse or a finger onto a box, and every label also
 * has its own "Place in…" list (a native select), which is the keyboard and screen-reader way:
 * Tab to the list, arrow keys to pick the box. Each move is announced.
 * Answer: one list of choice indexes per target, in target order.
 */
export function DragAndDrop({
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
  const choices = row.choices ?? [];
  const targets = row.targets ?? [];
  const lists = asTargetLists(value, targets.length);
  const order = displayOrder(choices.length, row.settings?.keepOrder, idPrefix);
  const [drag, setDrag] = useState<DragState | null>(null);
  const press = useRef<{ choice: number; x: number; y: number; pointerId: number } | null>(null);
  const refocus = useRef<number | null>(null);

  // A placed label moves to another list and is rendered anew: its "Place in" list gets the
  // focus back, so a keyboard user can go on (or change their mind) where they were. A layout
  // effect, so the very next key press already lands there.
  useLayoutEffect(() => {
    if (refocus.current === null) return;
    document.getElementById(`${idPrefix}-place-${refocus.current}`)?.focus();
    refocus.current = null;
  });

  const items: DragItem[] | null =
    correction?.type === 'drag-n-drop' ? (correction.detail.items as DragItem[]) : null;
  const placedIn = (choice: number): number | null => {
    const found = lists.findIndex((list) => list.includes(choice));
    return found === -1 ? null : found;
  };
  const choiceText = (choice: number) => htmlToText(choices[choice]?.value) || String(choice + 1);
  const targetText = (target: number) => htmlToText(targets[target]?.value) || String(target + 1);

  const place = (choice: number, target: number | null) => {
    if (placedIn(choice) === target) return;
    const next = lists.map((list) => list.filter((c) => c !== choice));
    if (target !== null) next[target] = [...next[target]!, choice].sort((a, b) => a - b);
    onChange(next);
    announce(
      target === null
        ? t('exercises.dragAndDrop.removed', { choice: choiceText(choice) })
        : t('exercises.dragAndDrop.placed', { choice: choiceText(choice), target: targetText(target) }),
    );
  };

  const onPointerDown = (choice: number) => (event: PointerEvent<HTMLElement>) => {
    if (readOnly || event.button !== 0) return;
    press.current = { choice, x: event.clientX, y: event.clientY, pointerId: event.pointerId };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const start = press.current;
    if (!start || start.pointerId !== event.pointerId) return;
    const moved = Math.hypot(event.clientX - start.x, event.clientY - start.y);
    if (!drag && moved < DRAG_THRESHOLD) return;
    setDrag({
      choice: start.choice,
      x: event.clientX,
      y: event.clientY,
      over: dropZoneAt(event.clientX, event.clientY),
    });
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    const start = press.current;
    press.current = null;
    if (!start || !drag) return;
    setDrag(null);
    const zone = dropZoneAt(event.clientX, event.clientY);
    if (zone === null) return;
    place(start.choice, zone === POOL ? null : Number(zone));
  };
  const onPointerCancel = () => {
    press.current = null;
    setDrag(null);
  };

  const chipStyle: CSSProperties = {
    minWidth: Number(row.settings?.defaultWidth) ? `${Number(row.settings?.defaultWidth)}px` : undefined,
    minHeight: Number(row.settings?.defaultHeight) ? `${Number(row.settings?.defaultHeight)}px` : undefined,
  };

  const chip = (choice: number) => {
    const status = items?.[choice]?.status ?? 'neutral';
    const selectId = `${idPrefix}-place-${choice}`;
    const current = placedIn(choice);
    return (
      <li
        key={choice}
        className={`dnd__chip is-${status}${drag?.choice === choice ? ' is-dragging' : ''}`}
        style={chipStyle}
      >
        <span
          className="dnd__handle"
          onPointerDown={onPointerDown(choice)}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerCancel}
        >
          <span aria-hidden="true" className="dnd__grip">
            ⠿
          </span>
          <RichText inline html={choices[choice]?.value ?? ''} />
        </span>
        <label htmlFor={selectId} className="sr-only">
          {t('exercises.dragAndDrop.placeLabel', { choice: choiceText(choice) })}
        </label>
        <select
          id={selectId}
          className="dnd__select"
          value={current === null ? '' : String(current)}
          disabled={readOnly}
          onChange={(event) => {
            refocus.current = choice;
            place(choice, event.target.value === '' ? null : Number(event.target.value));
          }}
        >
          <option value="">{t('exercises.dragAndDrop.notPlaced')}</option>
          {targets.map((_, target) => (
            <option key={target} value={String(target)}>
              {targetText(target)}
            </option>
          ))}
        </select>
        <CorrectionMark status={status} />
      </li>
    );
  };

  const pool = order.filter((choice) => placedIn(choice) === null);
  return (
    <div className="dnd" role="group" aria-labelledby={labelledBy} aria-describedby={`${idPrefix}-help`}>
      <p id={`${idPrefix}-help`} className="dnd__help">
        {t('exercises.dragAndDrop.help')}
      </p>
      <div
        className={`dnd__pool${drag?.over === POOL ? ' is-over' : ''}`}
        data-drop={POOL}
        role="group"
        aria-labelledby={`${idPrefix}-pool`}
      >
        <h4 id={`${idPrefix}-pool`} className="dnd__zone-title">
          {t('exercises.dragAndDrop.pool', { count: pool.length })}
        </h4>
        <ul className="dnd__list">{pool.map(chip)}</ul>
      </div>
      <div className="dnd__targets">
        {targets.map((target, index) => {
          // Where each choice belongs is sent only once no retry can be graded (decision 0009).
          const expected = items?.every((item) => item.expected !== undefined)
            ? items.flatMap((item, choice) => (item.expected === index ? [choiceText(choice)] : []))
            : null;
          return (
            <div
              key={index}
              className={`dnd__target${drag?.over === String(index) ? ' is-over' : ''}`}
              data-drop={String(index)}
              role="group"
              aria-labelledby={`${idPrefix}-target-${index}`}
            >
              <h4 id={`${idPrefix}-target-${index}`} className="dnd__zone-title">
                <RichText inline html={target.value ?? ''} />
              </h4>
              <ul className="dnd__list">{order.filter((c) => lists[index]!.includes(c)).map(chip)}</ul>
              {expected ? (
                <p className="dnd__expected">
                  {t('exercises.dragAndDrop.expected', {
                    list: expected.length ? expected.join(', ') : t('exercises.dragAndDrop.nothing'),
                  })}
                </p>
              ) : null}
            </div>
          );
        })}
      </div>
      {drag ? (
        <div className="dnd__ghost" aria-hidden="true" style={{ left: drag.x, top: drag.y }}>
          <RichText inline html={choices[drag.choice]?.value ?? ''} />
        </div>
      ) : null}
    </div>
  );
}

import { CorrectionMark, type CorrectionStatus } from '../../../components/ui/CorrectionMark';
import type { RowProps } from '../row-props';
import { asIndexList, itemStatuses } from '../shared/answers';
import { ChoiceLabel } from '../shared/ChoiceLabel';
import { columnsOf, displayOrder } from '../shared/order';

/**
 * multiple-choice: a group of native checkboxes (Tab to each, Space to tick), named by the
 * question. Answer: the ticked choice indexes, in content order.
 */
export function MultipleChoice({
  row,
  idPrefix,
  labelledBy,
  value,
  onChange,
  readOnly,
  correction,
}: RowProps) {
  const picked = asIndexList(value);
  const choices = row.choices ?? [];
  const order = displayOrder(choices.length, row.settings?.keepOrder, idPrefix);
  const statuses = itemStatuses(correction);

  const toggle = (index: number, checked: boolean) => {
    const next = checked ? [...picked, index] : picked.filter((i) => i !== index);
    onChange([...new Set(next)].sort((a, b) => a - b));
  };

  return (
    <div
      role="group"
      aria-labelledby={labelledBy}
      // A class per column count, not a style prop: the server draws this screen (decision 0053).
      className={`choices choices--columns-${columnsOf(row.settings)}`}
    >
      {order.map((index) => {
        const choice = choices[index]!;
        const status = (statuses[index] ?? 'neutral') as CorrectionStatus;
        const id = `${idPrefix}-choice-${index}`;
        return (
          <div key={index} className={`choice choice--checkbox is-${status}`}>
            <input
              id={id}
              type="checkbox"
              className="choice__input"
              checked={picked.includes(index)}
              disabled={readOnly}
              onChange={(event) => toggle(index, event.target.checked)}
            />
            <label htmlFor={id} className="choice__label">
              <ChoiceLabel choice={choice} settings={row.settings} />
              <CorrectionMark status={status} />
            </label>
          </div>
        );
      })}
    </div>
  );
}

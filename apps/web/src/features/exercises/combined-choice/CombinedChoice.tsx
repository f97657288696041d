import { CorrectionMark, type CorrectionStatus } from '../../../components/ui/CorrectionMark';
import type { RowProps } from '../row-props';
import { asIndex, itemStatuses } from '../shared/answers';
import { ChoiceLabel } from '../shared/ChoiceLabel';
import { columnsOf, displayOrder } from '../shared/order';

/**
 * combined-choice: one native radio group (Tab into it, arrow keys to move and pick), named by
 * the question. Answer: the picked index or null.
 */
export function CombinedChoice({
  row,
  idPrefix,
  labelledBy,
  value,
  onChange,
  readOnly,
  correction,
}: RowProps) {
  const picked = asIndex(value);
  const choices = row.choices ?? [];
  const order = displayOrder(choices.length, row.settings?.keepOrder, idPrefix);
  const statuses = itemStatuses(correction);

  return (
    <div
      role="radiogroup"
      aria-labelledby={labelledBy}
      // A class per column count, not a style prop: the server draws this screen (decision 0053).
      className={`choices choices--columns-${columnsOf(row.settings)}`}
    >
      {order.map((index) => {
        const choice = choices[index]!;
        const status = (statuses[index] ?? 'neutral') as CorrectionStatus;
        const id = `${idPrefix}-choice-${index}`;
        return (
          <div key={index} className={`choice choice--radio is-${status}`}>
            <input
              id={id}
              type="radio"
              name={`${idPrefix}-radio`}
              className="choice__input"
              checked={picked === index}
              disabled={readOnly}
              onChange={() => onChange(index)}
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

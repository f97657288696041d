import { Label, Radio, RadioGroup } from 'react-aria-components';

export interface ChoiceOption {
  value: string;
  label: string;
}

interface ChoiceGroupProps {
  /** Visible question or instruction, already translated or from content. */
  label: string;
  options: readonly ChoiceOption[];
  value: string | null;
  onChange: (value: string) => void;
  isDisabled?: boolean;
}

/**
 * One pick among a few cards (next lessons, a question's choices): a React Aria radio group,
 * so arrows move between cards and a screen reader hears "2 of 3, selected".
 */
export function ChoiceGroup({ label, options, value, onChange, isDisabled = false }: ChoiceGroupProps) {
  return (
    <RadioGroup className="choice-group" value={value} onChange={onChange} isDisabled={isDisabled}>
      <Label className="choice-group__label">{label}</Label>
      <div className="choice-group__options">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} className="choice-group__option">
            {({ isSelected }) => (
              <>
                <span
                  className="choice-group__mark"
                  aria-hidden="true"
                  data-selected={isSelected || undefined}
                />
                <span className="choice-group__text">{option.label}</span>
              </>
            )}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  );
}

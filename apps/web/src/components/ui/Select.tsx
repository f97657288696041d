import {
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
} from 'react-aria-components';

export interface SelectOption {
  id: string;
  label: string;
}

interface SelectProps {
  label: string;
  options: readonly SelectOption[];
  value: string;
  onChange: (value: string) => void;
  className?: string;
}

/** A labelled single choice (React Aria: keyboard, typeahead and screen-reader support). */
export function Select({ label, options, value, onChange, className }: SelectProps) {
  return (
    <AriaSelect
      className={['select', className].filter(Boolean).join(' ')}
      selectedKey={value}
      onSelectionChange={(key) => onChange(String(key))}
    >
      <Label className="select__label">{label}</Label>
      <Button className="select__button">
        <SelectValue className="select__value" />
        <span className="select__chevron" aria-hidden="true">
          ▾
        </span>
      </Button>
      <Popover className="select__popover">
        <ListBox className="select__list" items={options}>
          {(option) => (
            <ListBoxItem id={option.id} className="select__option" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}

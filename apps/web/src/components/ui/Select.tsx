import { useId } from 'react';

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

/**
 * A labelled single choice, as the browser's own `<select>`: keyboard, typeahead, screen readers
 * and the phone's native picker come with it, and it costs no script (decision 0021: React Aria's
 * Select, listbox and popover were ~20 kB of the home's first load).
 */
export function Select({ label, options, value, onChange, className }: SelectProps) {
  const id = useId();
  return (
    <div className={['select', className].filter(Boolean).join(' ')}>
      <label className="select__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className="select__control"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      >
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useState, type InputHTMLAttributes, type Ref } from 'react';
import './form.css';

interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  id: string;
  /** Already translated label of the show/hide toggle. */
  showLabel: string;
  ref?: Ref<HTMLInputElement>;
}

/** A password input with a toggle to read what was typed (pressed state announced). */
export function PasswordInput({ id, showLabel, className, ref, ...props }: PasswordInputProps) {
  const [shown, setShown] = useState(false);
  return (
    <div className="field__with-action">
      <input
        ref={ref}
        id={id}
        type={shown ? 'text' : 'password'}
        className={['field__input', className].filter(Boolean).join(' ')}
        {...props}
      />
      <button
        type="button"
        className="field__action"
        aria-pressed={shown}
        aria-controls={id}
        onClick={() => setShown((value) => !value)}
      >
        {showLabel}
      </button>
    </div>
  );
}

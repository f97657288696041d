import { useId, type ReactNode } from 'react';
import './form.css';

/** What a field's control needs to be labelled and described (errors are read with it). */
export interface FieldControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface FormFieldProps {
  /** Already translated. */
  label: string;
  /** Already translated; shown under the control and announced with it. */
  error?: string | undefined;
  hint?: string | undefined;
  children: (control: FieldControlProps) => ReactNode;
  className?: string;
}

/**
 * A labelled field: the label points at the control, and the hint and error are its
 * description, so a screen reader reads the problem when the learner comes back to the field.
 */
export function FormField({ label, error, hint, children, className }: FormFieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {children({
        id,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface SpinnerProps {
  /** Announced to screen readers; already translated by the caller. */
  label: string;
  /** Writes the label under the ring too: a wait whose reason everyone needs (offline). */
  showLabel?: boolean;
  className?: string;
}

export function Spinner({ label, showLabel = false, className }: SpinnerProps) {
  return (
    <div role="status" aria-live="polite" className={['spinner', className].filter(Boolean).join(' ')}>
      <span className="spinner__ring" aria-hidden="true" />
      <span className={showLabel ? 'spinner__label' : 'sr-only'}>{label}</span>
    </div>
  );
}

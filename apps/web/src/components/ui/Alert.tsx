import type { ReactNode } from 'react';

export type AlertTone = 'error' | 'warning' | 'success' | 'info';

interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
}

/**
 * Errors and warnings interrupt (role=alert); successes and information wait their turn
 * (role=status), so screen readers are not shouted at for good news.
 */
export function Alert({ tone = 'info', title, children, className }: AlertProps) {
  const urgent = tone === 'error' || tone === 'warning';
  return (
    <div
      role={urgent ? 'alert' : 'status'}
      className={['alert', `alert--${tone}`, className].filter(Boolean).join(' ')}
    >
      {title ? <p className="alert__title">{title}</p> : null}
      {children ? <div className="alert__body">{children}</div> : null}
    </div>
  );
}

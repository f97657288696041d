import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { AriaLocale } from './AriaLocale';
import './dialog.css';

export type DialogTone = 'info' | 'success' | 'warning' | 'danger';

export interface DialogProps {
  isOpen: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** The dialog's buttons; the one with `data-autofocus` gets focus on opening. */
  actions: ReactNode;
  /**
   * alertdialog for what interrupts and needs an answer (confirmations, errors); dialog for
   * information the learner reads and closes (feedback).
   */
  role?: 'dialog' | 'alertdialog';
  /** Escape and a click outside call this; without it the learner must pick an action. */
  onDismiss?: () => void;
  tone?: DialogTone;
  className?: string;
}

/**
 * Focuses the action marked `data-autofocus` (the safe choice of a confirmation) when the dialog
 * opens. Runs before React Aria's own focusing (child effects run first), which then keeps it.
 */
function PreferredFocus() {
  const marker = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    marker.current?.parentElement?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return <span ref={marker} hidden />;
}

/**
 * A modal dialog (React Aria: focus trapped inside and restored on close, the rest of the page
 * hidden from screen readers, Escape handled), titled by its heading. Loaded by Dialog.tsx when
 * a dialog first opens (decision 0021).
 */
export function DialogFrame({
  isOpen,
  title,
  children,
  actions,
  role = 'dialog',
  onDismiss,
  tone = 'info',
  className,
}: DialogProps) {
  return (
    <AriaLocale>
      <ModalOverlay
        isOpen={isOpen}
        isDismissable={onDismiss !== undefined}
        isKeyboardDismissDisabled={onDismiss === undefined}
        onOpenChange={(open) => {
          if (!open) onDismiss?.();
        }}
        className="dialog-overlay"
      >
        <Modal className="dialog-modal">
          <AriaDialog
            role={role}
            className={['dialog', `dialog--${tone}`, className].filter(Boolean).join(' ')}
          >
            <Heading slot="title" className="dialog__title">
              {title}
            </Heading>
            {children ? <div className="dialog__body">{children}</div> : null}
            <div className="dialog__actions">{actions}</div>
            <PreferredFocus />
          </AriaDialog>
        </Modal>
      </ModalOverlay>
    </AriaLocale>
  );
}

/**
 * A modal dialog on the native <dialog> element: the browser traps focus inside it, makes the
 * page behind it inert and closes it on Escape. This component adds what the spec asks on top:
 * a click on the backdrop closes it, and focus goes back to the control that opened it.
 *
 * A dialog that must not be dismissed (a send in progress) ignores Escape and the backdrop; if
 * the browser closes it anyway (Chrome lets a second Escape through), it is shown again.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import './modal.css';

interface ModalProps {
  open: boolean;
  /** Called when the user dismisses the dialog (Escape, backdrop); the parent then sets open=false. */
  onClose(): void;
  labelledBy: string;
  describedBy?: string;
  /** 'alertdialog' for messages that need an answer (the result of a send). */
  role?: 'dialog' | 'alertdialog';
  dismissible?: boolean;
  /** What takes focus when the dialog opens; the browser's choice (the first control) otherwise. */
  initialFocus?: React.RefObject<HTMLElement | null>;
  className?: string;
  children: ReactNode;
}

function useShowModal(
  dialogRef: React.RefObject<HTMLDialogElement | null>,
  open: boolean,
  initialFocus: React.RefObject<HTMLElement | null> | undefined,
): void {
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    // Remembered before showModal moves focus into the dialog.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // The opener may have been replaced (a list re-rendered); focusing a detached node would
      // lose focus to the page, so only a node still in the document gets it back.
      if (opener?.isConnected) opener.focus();
    };
  }, [dialogRef, open, initialFocus]);
}

export function Modal({
  open,
  onClose,
  labelledBy,
  describedBy,
  role = 'dialog',
  dismissible = true,
  initialFocus,
  className,
  children,
}: ModalProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useShowModal(dialogRef, open, initialFocus);
  if (!open) return null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the click handler only sees clicks on the backdrop; Escape, the keyboard's way to dismiss, is handled by the dialog itself (cancel event).
    <dialog
      ref={dialogRef}
      className={`modal ${className ?? ''}`}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      aria-modal="true"
      onCancel={(event) => {
        event.preventDefault();
        if (dismissible) onClose();
      }}
      onClose={(event) => {
        // Reached when the browser closed the dialog itself; a dialog leaving the page (its
        // parent closed it) needs nothing more.
        if (!event.currentTarget.isConnected) return;
        if (!dismissible) event.currentTarget.showModal();
        else onClose();
      }}
      onClick={(event) => {
        // The dialog box has no padding of its own (its content does), so a click whose target
        // is the <dialog> element itself landed on the backdrop.
        if (dismissible && event.target === event.currentTarget) onClose();
      }}
    >
      <div className="modal-body">{children}</div>
    </dialog>
  );
}

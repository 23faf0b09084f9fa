/**
 * The confirm-then-act shape of a subscription's actions (Accept a price, End for a price,
 * Cancel): a button opens an alertdialog on the wallet's Modal whose safe answer takes focus,
 * the confirm button waits while the server decides, and the server's message, or its refusal,
 * shows in a FormAlert. The state lives in useConfirmedAction so that its result stays in view
 * after the caller stops offering the action.
 */
import { type ReactNode, useId, useRef, useState } from 'react';
import { toAppErrorView } from '../../app/appError.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { useErrorText } from '../plans/planFormat.js';
import { Modal } from '../../ui/Modal.js';

export interface ActionResult {
  kind: 'success' | 'error';
  message: string;
}

export interface ConfirmedActionState {
  open: boolean;
  result: ActionResult | null;
  /** Clears the previous answer and opens the confirmation. */
  begin(): void;
  close(): void;
  /**
   * Runs the confirmed request, shows its message or its refusal, closes the confirmation, then
   * lets the caller reload what it changed (also after a refusal: the state may have moved on).
   */
  run(act: () => Promise<{ message: string }>, reload: () => Promise<unknown>): Promise<void>;
}

export function useConfirmedAction(): ConfirmedActionState {
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<ActionResult | null>(null);
  return {
    open,
    result,
    begin: () => {
      setResult(null);
      setOpen(true);
    },
    close: () => setOpen(false),
    run: async (act, reload) => {
      try {
        const answer = await act();
        setResult({ kind: 'success', message: answer.message });
      } catch (failure) {
        setResult({ kind: 'error', message: errorText(toAppErrorView(failure)) });
      }
      setOpen(false);
      await reload();
    },
  };
}

export function ActionResultAlert({ result }: { result: ActionResult | null }) {
  return result ? <FormAlert kind={result.kind}>{result.message}</FormAlert> : null;
}

interface ConfirmedActionProps {
  state: ConfirmedActionState;
  /** The request is in flight: the dialog cannot be dismissed and its buttons wait. */
  pending: boolean;
  onConfirm(): void;
  /** The button that opens the confirmation; omitted, only the dialog renders. */
  button?: { label: string; className: string };
  title: string;
  body: ReactNode;
  keepLabel: string;
  confirmLabel: string;
  busyLabel: string;
}

export function ConfirmedAction({
  state,
  pending,
  onConfirm,
  button,
  title,
  body,
  keepLabel,
  confirmLabel,
  busyLabel,
}: ConfirmedActionProps) {
  const titleId = useId();
  const bodyId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      {button ? (
        <button type="button" className={button.className} onClick={state.begin}>
          {button.label}
        </button>
      ) : null}
      <Modal
        open={state.open}
        onClose={state.close}
        dismissible={!pending}
        role="alertdialog"
        labelledBy={titleId}
        describedBy={bodyId}
        initialFocus={keepRef}
        className="plans-dialog"
      >
        <h2 id={titleId}>{title}</h2>
        <p id={bodyId}>{body}</p>
        <div className="modal-actions">
          <button type="button" className="button" ref={keepRef} disabled={pending} onClick={state.close}>
            {keepLabel}
          </button>
          <button type="button" className="button button-primary" disabled={pending} aria-busy={pending || undefined} onClick={onConfirm}>
            {pending ? busyLabel : confirmLabel}
          </button>
        </div>
      </Modal>
    </>
  );
}

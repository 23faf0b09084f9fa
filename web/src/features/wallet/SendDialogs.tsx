/**
 * The dialogs of a send (spec, Send; section 8): 'Transaction in progress' while the request
 * runs (it cannot be dismissed), then 'Transaction successful' with Ok, or 'Transaction failed'
 * with the server's message, 'Go to account' and 'Try again'.
 */
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal.js';

export type SendPhase =
  | { phase: 'editing' }
  | { phase: 'sending' }
  | { phase: 'succeeded'; amount: string; to: string }
  | { phase: 'failed'; message: string };

interface SendDialogsProps {
  state: SendPhase;
  /** Ok on success: the spec goes to /account. */
  onOk(): void;
  onGoToAccount(): void;
  onTryAgain(): void;
}

function ProgressDialog({ open }: { open: boolean }) {
  const { t } = useTranslation('wallet');
  const titleId = useId();
  const bodyId = useId();
  return (
    <Modal open={open} onClose={() => {}} dismissible={false} labelledBy={titleId} describedBy={bodyId} className="send-dialog">
      <div className="send-progress" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <h2 id={titleId}>{t('send.inProgress')}</h2>
      </div>
      <p id={bodyId}>{t('send.inProgressBody')}</p>
    </Modal>
  );
}

export function SendDialogs({ state, onOk, onGoToAccount, onTryAgain }: SendDialogsProps) {
  const { t } = useTranslation('wallet');
  const successTitleId = useId();
  const successBodyId = useId();
  const failedTitleId = useId();
  const failedBodyId = useId();
  // Each result dialog focuses its expected answer: Ok, or 'Try again' (which keeps the details).
  const okRef = useRef<HTMLButtonElement>(null);
  const tryAgainRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <ProgressDialog open={state.phase === 'sending'} />
      <Modal
        open={state.phase === 'succeeded'}
        onClose={onOk}
        initialFocus={okRef}
        role="alertdialog"
        labelledBy={successTitleId}
        describedBy={successBodyId}
        className="send-dialog send-dialog-success"
      >
        <h2 id={successTitleId}>{t('send.successTitle')}</h2>
        <p id={successBodyId}>{state.phase === 'succeeded' ? t('send.successBody', { amount: state.amount, to: state.to }) : null}</p>
        <div className="modal-actions">
          <button type="button" className="button button-primary" onClick={onOk} ref={okRef}>
            {t('send.ok')}
          </button>
        </div>
      </Modal>
      <Modal
        open={state.phase === 'failed'}
        onClose={onTryAgain}
        initialFocus={tryAgainRef}
        role="alertdialog"
        labelledBy={failedTitleId}
        describedBy={failedBodyId}
        className="send-dialog send-dialog-failed"
      >
        <h2 id={failedTitleId}>{t('send.failedTitle')}</h2>
        <p id={failedBodyId}>{state.phase === 'failed' ? state.message : null}</p>
        <div className="modal-actions">
          <button type="button" className="button" onClick={onGoToAccount}>
            {t('send.goToAccount')}
          </button>
          <button type="button" className="button button-primary" onClick={onTryAgain} ref={tryAgainRef}>
            {t('send.tryAgain')}
          </button>
        </div>
      </Modal>
    </>
  );
}

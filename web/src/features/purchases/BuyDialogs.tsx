/**
 * The Buy page's dialogs (spec sections 2 and 8): the error dialog with Ok (the checks before
 * PayPal, the server's refusals, PayPal's issues), 'Completing your purchase' while the payment is
 * captured and credited (it cannot be dismissed), the success dialog with the status and the
 * transaction id (PayPal's capture id), and the one that says a payment is still processing.
 */
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
// The dialog box, its actions row and the spinner are the shared Modal's (ui/modal.css).
import { Modal } from '../../ui/Modal.js';
import type { BuyDialogState } from './usePurchaseCheckout.js';

interface BuyDialogsProps {
  dialog: BuyDialogState;
  /** Ok on an error: back to the screen it came from. */
  onDismissError(): void;
  /** Ok once the payment went through (or is processing): the dashboard. */
  onDone(): void;
}

function CompletingDialog({ open }: { open: boolean }) {
  const { t } = useTranslation('buy');
  const titleId = useId();
  const bodyId = useId();
  return (
    <Modal open={open} onClose={() => {}} dismissible={false} labelledBy={titleId} describedBy={bodyId} className="buy-dialog">
      <div className="buy-progress" aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        <h2 id={titleId}>{t('completingTitle')}</h2>
      </div>
      <p id={bodyId}>{t('completingBody')}</p>
    </Modal>
  );
}

function MessageDialog({
  open,
  title,
  onOk,
  className,
  children,
}: {
  open: boolean;
  title: string;
  onOk(): void;
  className: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation('buy');
  const titleId = useId();
  const bodyId = useId();
  const okRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={open}
      onClose={onOk}
      initialFocus={okRef}
      role="alertdialog"
      labelledBy={titleId}
      describedBy={bodyId}
      className={`buy-dialog ${className}`}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId} className="buy-dialog-message">
        {children}
      </div>
      <div className="modal-actions">
        <button type="button" className="button button-primary" onClick={onOk} ref={okRef}>
          {t('ok')}
        </button>
      </div>
    </Modal>
  );
}

export function BuyDialogs({ dialog, onDismissError, onDone }: BuyDialogsProps) {
  const { t } = useTranslation('buy');
  return (
    <>
      <CompletingDialog open={dialog.kind === 'completing'} />
      <MessageDialog open={dialog.kind === 'error'} title={t('errorTitle')} onOk={onDismissError} className="buy-dialog-error">
        <p>{dialog.kind === 'error' ? dialog.message : null}</p>
      </MessageDialog>
      <MessageDialog open={dialog.kind === 'success'} title={t('successTitle')} onOk={onDone} className="buy-dialog-success">
        {dialog.kind === 'success' ? (
          <>
            <p>{t('successBody', { amount: dialog.amount })}</p>
            <dl className="buy-receipt">
              <dt>{t('status')}</dt>
              <dd>{dialog.status}</dd>
              <dt>{t('transactionId')}</dt>
              <dd className="buy-transaction-id">{dialog.transactionId}</dd>
            </dl>
          </>
        ) : null}
      </MessageDialog>
      <MessageDialog open={dialog.kind === 'pending'} title={t('pendingTitle')} onOk={onDone} className="buy-dialog-pending">
        <p>{dialog.kind === 'pending' ? t('pendingBody', { amount: dialog.amount }) : null}</p>
      </MessageDialog>
    </>
  );
}

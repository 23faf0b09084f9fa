/**
 * Refunds of an invoice on the payments page (issue 27, ADR 087). `InvoiceRefundAction`: for an
 * invoice with MLX paid and not yet refunded, a Refund action opening a small form (the amount,
 * empty for all that is refundable, the maximum shown), then the claim link with Copy, and whether
 * it was e-mailed to the payer (the invoice's customer_email) or is for the merchant to send.
 * Creating a refund moves money once claimed, so the server may ask for the password again (the
 * re-authentication dialog). One Idempotency-Key stands for one intended refund, as in
 * RefundAction: kept while the same amount is retried after an unexplained failure, replaced when
 * the amount changes, after an answer or a refusal. `InvoiceRefundList`: the invoice's refunds
 * with their amount and status; one awaiting its claim offers its link and Cancel refund.
 */
import type { InvoiceOutput, InvoiceRefundOutput } from '@quern/core/invoices';
import { SEND_FEE_MLX } from '@quern/core/wallet';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppErrorView, toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { newIdempotencyKey } from '../../ui/idempotencyKey.js';
import { displayParams, formatMlxWire } from '../../ui/displayFormat.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useReauthentication } from '../merchant-keys/ReauthenticateDialog.js';

/** What the invoice can still refund, in whole MLX as on the wire: paid, less what refunds hold or sent. */
export const invoiceRefundableOf = (invoice: Pick<InvoiceOutput, 'amount_paid_mlx' | 'amount_refunded_mlx'>): string => {
  const left = BigInt(invoice.amount_paid_mlx) - BigInt(invoice.amount_refunded_mlx);
  return (left > 0n ? left : 0n).toString();
};

/** The server's message for a refusal (its field's, if it names one), its MLX parameters grouped. */
function useRefusalText(): (view: AppErrorView) => string {
  const messageText = useMessageText();
  const language = useLanguage();
  return (view) => {
    const field = Object.values(view.fields)[0];
    const params = displayParams(view.params, language);
    // invoiceRefundTooLarge names its maximum `refundable`: grouped like every amount on screen.
    const refundable = view.params.refundable;
    if (typeof refundable === 'string' && /^\d+$/.test(refundable)) params.refundable = formatMlxWire(refundable, language) ?? refundable;
    return messageText({ key: field ?? view.messageKey, params, ...(field === undefined ? { fallback: view.message } : {}) });
  };
}

function ClaimLink({ refund, invoice }: { refund: InvoiceRefundOutput; invoice: InvoiceOutput }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  const amount = formatMlxWire(refund.amount_mlx, language) ?? refund.amount_mlx;
  return (
    <div className="invoices-refund-created" data-testid="invoice-refund-created">
      <FormAlert kind="success">{t('invoiceRefundCreated', { amount })}</FormAlert>
      {refund.claim_url !== null ? (
        <>
          <p className="invoices-refund-link">
            <code data-testid="invoice-refund-claim-url">{refund.claim_url}</code>
          </p>
          <CopyButton text={refund.claim_url} what={t('invoiceRefundLink')} testId="invoice-refund-copy" />
        </>
      ) : null}
      <p className="field-hint">
        {refund.emailed || invoice.customer_email !== null
          ? t('invoiceRefundEmailed', { email: invoice.customer_email ?? '' })
          : t('invoiceRefundSendLink')}
      </p>
    </div>
  );
}

export function InvoiceRefundAction({ invoice }: { invoice: InvoiceOutput }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refund = useMutation(trpc.invoices.refund.mutationOptions());
  const { withReauthentication, dialog } = useReauthentication();
  const refusalText = useRefusalText();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<InvoiceRefundOutput | null>(null);
  // The button is disabled once the first click's render lands; this refuses a second click before it.
  const submitting = useRef(false);
  const amountId = useId();
  const hintId = useId();
  const errorId = useId();
  const left = invoiceRefundableOf(invoice);
  const leftText = formatMlxWire(left, language) ?? left;
  const digits = amount.replace(/[\s,.]/g, '');
  const shown = created ? <ClaimLink refund={created} invoice={invoice} /> : null;
  if (left === '0' && !open) return shown;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current) return;
    setError(null);
    if (digits !== '' && !/^[0-9]+$/.test(digits)) {
      setError(t('refundAmountInvalid'));
      return;
    }
    submitting.current = true;
    try {
      const answer = await withReauthentication(() =>
        refund.mutateAsync({ id: invoice.id, idempotencyKey: key, ...(digits ? { amount: digits } : {}) }),
      );
      if (answer === undefined) return;
      setCreated(answer);
      setOpen(false);
      setAmount('');
      setKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.pathKey() });
    } catch (failure) {
      const view = toAppErrorView(failure);
      // A refusal created nothing: a new attempt is a new refund. An unexplained failure keeps the key.
      if (view.code !== null && view.code !== 'INTERNAL' && view.code !== 'UNAVAILABLE') setKey(newIdempotencyKey());
      setError(refusalText(view));
    } finally {
      submitting.current = false;
    }
  };

  if (!open)
    return (
      <div className="payments-refund invoices-refund">
        {shown}
        <button
          type="button"
          className="button"
          onClick={() => {
            setOpen(true);
            setCreated(null);
            setError(null);
          }}
        >
          {t('invoiceRefund')}
        </button>
      </div>
    );
  return (
    <>
      <form
        className="payments-refund payments-refund-form invoices-refund"
        onSubmit={(e) => void onSubmit(e)}
        noValidate
        data-testid="invoice-refund-form"
      >
        <label htmlFor={amountId}>{t('refundAmount')}</label>
        <input
          id={amountId}
          inputMode="numeric"
          autoComplete="off"
          value={amount}
          placeholder={leftText}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(e) => {
            setAmount(e.target.value);
            setKey(newIdempotencyKey());
          }}
        />
        <p className="field-hint" id={hintId}>
          {t('invoiceRefundHint', { max: leftText, fee: formatMlxWire(SEND_FEE_MLX.toString(), language) ?? SEND_FEE_MLX.toString() })}
        </p>
        {error ? (
          <FormAlert id={errorId} kind="error">
            {error}
          </FormAlert>
        ) : null}
        <div className="payments-refund-actions">
          <button type="submit" className="button button-primary" disabled={refund.isPending}>
            {refund.isPending
              ? t('invoiceRefunding')
              : t('refundConfirm', { amount: digits && /^[0-9]+$/.test(digits) ? (formatMlxWire(digits, language) ?? digits) : leftText })}
          </button>
          <button type="button" className="button" disabled={refund.isPending} onClick={() => setOpen(false)}>
            {t('cancel')}
          </button>
        </div>
      </form>
      {/* Outside the form: the dialog has a form of its own. */}
      {dialog}
    </>
  );
}

function RefundLine({ invoice, refund }: { invoice: InvoiceOutput; refund: InvoiceRefundOutput }) {
  const { t } = useTranslation('payments');
  const language = useLanguage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refusalText = useRefusalText();
  const cancel = useMutation(trpc.invoices.cancelRefund.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const onCancel = async () => {
    setError(null);
    try {
      await cancel.mutateAsync({ id: invoice.id, refundId: refund.id });
    } catch (failure) {
      setError(refusalText(toAppErrorView(failure)));
    }
    // Canceled, or claimed meanwhile: either way the list shows how it stands now.
    await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.pathKey() });
  };
  return (
    <li className="invoices-refund-line" data-testid="invoice-refund" data-status={refund.status}>
      <span>
        {t('invoiceRefundLine', { amount: formatMlxWire(refund.amount_mlx, language) ?? refund.amount_mlx })}{' '}
        <span className={`payments-status invoices-refund-status-${refund.status}`} data-testid="invoice-refund-status">
          {t(`invoiceRefundStatus_${refund.status}`)}
        </span>
      </span>
      {refund.status === 'awaiting_claim' && refund.claim_url !== null ? (
        <span className="invoices-refund-actions">
          <CopyButton text={refund.claim_url} what={t('invoiceRefundLink')} />
          <button type="button" className="button" disabled={cancel.isPending} onClick={() => void onCancel()}>
            {cancel.isPending ? t('invoiceRefundCanceling') : t('invoiceRefundCancel')}
          </button>
        </span>
      ) : null}
      {error ? <FormAlert kind="error">{error}</FormAlert> : null}
    </li>
  );
}

export function InvoiceRefundList({ invoice }: { invoice: InvoiceOutput }) {
  const { t } = useTranslation('payments');
  if (invoice.refunds.length === 0) return null;
  return (
    <div className="invoices-refunds" data-testid="invoice-refunds">
      <span className="invoices-refunds-title">{t('invoiceRefundsTitle')}</span>
      <ul>
        {invoice.refunds.map((refund) => (
          <RefundLine key={refund.id} invoice={invoice} refund={refund} />
        ))}
      </ul>
    </div>
  );
}

/**
 * A payment's Refund action on the merchant's payments page: an amount (empty means all that is
 * left), a confirmation, and the answer. One Idempotency-Key stands for one intended refund: it
 * is kept while the same amount is retried (a lost answer may hide a refund that went through,
 * and the key makes the server answer with it instead of refunding twice) and replaced when the
 * amount changes or after an answer.
 */
import type { Payment } from '@quern/core/payments';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { newIdempotencyKey } from '../../ui/idempotencyKey.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { formatMlxWire } from '../../ui/displayFormat.js';

/** What is left to refund, in whole MLX (a decimal string, as on the wire). */
export const refundableOf = (payment: Pick<Payment, 'amount' | 'amount_refunded'>): string =>
  (BigInt(payment.amount) - BigInt(payment.amount_refunded)).toString();

export function RefundAction({ payment }: { payment: Payment }) {
  const { t } = useTranslation(['payments', 'errors']);
  const language = useLanguage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refund = useMutation(trpc.refunds.create.mutationOptions());
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const amountId = useId();
  const left = refundableOf(payment);
  if (payment.status === 'refunded' || left === '0') return done ? <p role="status">{done}</p> : null;
  const leftText = formatMlxWire(left, language) ?? left;
  const digits = amount.replace(/[\s,.]/g, '');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (digits !== '' && !/^[0-9]+$/.test(digits)) {
      setError(t('refundAmountInvalid'));
      return;
    }
    try {
      const answer = await refund.mutateAsync({ order: payment.id, ...(digits ? { amount: digits } : {}), idempotencyKey: key });
      setDone(t('refundDone', { amount: formatMlxWire(answer.amount, language) ?? answer.amount }));
      setOpen(false);
      setAmount('');
      setKey(newIdempotencyKey());
      await queryClient.invalidateQueries({ queryKey: trpc.payments.list.pathKey() });
    } catch (failure) {
      const view = toAppErrorView(failure);
      // A refusal moved nothing: a new attempt is a new refund. An unexplained failure keeps the key.
      if (view.code !== null && view.code !== 'INTERNAL' && view.code !== 'UNAVAILABLE') setKey(newIdempotencyKey());
      const fieldKey = Object.values(view.fields)[0];
      setError(view.message || t(fieldKey ?? view.messageKey, { ns: 'errors', ...view.params, defaultValue: t('errors:internal') }));
    }
  };

  if (!open)
    return (
      <div className="payments-refund">
        {done ? <p role="status">{done}</p> : null}
        <button
          type="button"
          className="button"
          onClick={() => {
            setOpen(true);
            setDone(null);
          }}
        >
          {t('refund')}
        </button>
      </div>
    );
  return (
    <form className="payments-refund payments-refund-form" onSubmit={(e) => void onSubmit(e)} noValidate>
      <label htmlFor={amountId}>{t('refundAmount')}</label>
      <input
        id={amountId}
        inputMode="numeric"
        autoComplete="off"
        value={amount}
        placeholder={leftText}
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setAmount(e.target.value);
          setKey(newIdempotencyKey());
        }}
      />
      <p className="field-hint">{t('refundHint', { left: leftText })}</p>
      {error ? <FormAlert kind="error">{error}</FormAlert> : null}
      <div className="payments-refund-actions">
        <button type="submit" className="button button-primary" disabled={refund.isPending}>
          {refund.isPending
            ? t('refunding')
            : t('refundConfirm', { amount: digits && /^[0-9]+$/.test(digits) ? (formatMlxWire(digits, language) ?? digits) : leftText })}
        </button>
        <button type="button" className="button" disabled={refund.isPending} onClick={() => setOpen(false)}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

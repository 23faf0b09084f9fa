/**
 * An invoice's Void action on the payments page: only for an open invoice nothing has reached,
 * asked to be confirmed, and the server's own message shown when it refuses (a payment may have
 * arrived since the list was loaded). Voiding is idempotent on the server, so a retry is safe.
 */
import type { InvoiceOutput } from '@quern/core/invoices';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';

/** What the server accepts voiding: open, and no payment seen, stable or not. */
export const canVoid = (invoice: Pick<InvoiceOutput, 'status' | 'payments'>): boolean =>
  invoice.status === 'open' && invoice.payments.length === 0;

export function InvoiceVoidAction({ invoice }: { invoice: InvoiceOutput }) {
  const { t } = useTranslation(['payments', 'errors']);
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const voidIt = useMutation(trpc.invoices.void.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!canVoid(invoice) && !error) return null;

  const onConfirm = async () => {
    setError(null);
    try {
      await voidIt.mutateAsync({ id: invoice.id });
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.pathKey() });
    } catch (failure) {
      const view = toAppErrorView(failure);
      setError(view.message || t(view.messageKey, { ns: 'errors', ...view.params, defaultValue: t('errors:internal') }));
      setConfirming(false);
      await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.pathKey() });
    }
  };

  return (
    <div className="payments-refund invoices-void">
      {error ? <FormAlert kind="error">{error}</FormAlert> : null}
      {!canVoid(invoice) ? null : confirming ? (
        <>
          <p>{t('invoiceVoidQuestion')}</p>
          <div className="payments-refund-actions">
            <button type="button" className="button button-primary" disabled={voidIt.isPending} onClick={() => void onConfirm()}>
              {voidIt.isPending ? t('invoiceVoiding') : t('invoiceVoidConfirm')}
            </button>
            <button type="button" className="button" disabled={voidIt.isPending} onClick={() => setConfirming(false)}>
              {t('cancel')}
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="button" onClick={() => setConfirming(true)}>
          {t('invoiceVoid')}
        </button>
      )}
    </div>
  );
}

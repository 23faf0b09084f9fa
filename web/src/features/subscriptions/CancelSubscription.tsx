/**
 * Cancel, for a subscriber on their subscription's page and for the provider on a plan's
 * subscriber list (issue 13): a confirmation saying the cancellation takes effect at the end of
 * the paid period, then subscriptions.cancel; the server's message, or its refusal, is shown.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { Modal } from '../wallet/Modal.js';
import { MOBILE_MEDIA_QUERY, useMediaQuery } from '../wallet/useMediaQuery.js';
import { formatTransactionDate } from '../wallet/walletFormat.js';
import { useErrorText } from '../plans/planFormat.js';
import '../wallet/wallet.css';

interface CancelSubscriptionProps {
  subscriptionId: string;
  /** When the paid period ends, if known (the subscriber's own page knows it). */
  paidThrough?: string | null;
}

export function CancelSubscription({ subscriptionId, paidThrough }: CancelSubscriptionProps) {
  const { t } = useTranslation('subscriptions');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const cancel = useMutation(trpc.subscriptions.cancel.mutationOptions());
  const errorText = useErrorText();
  const mobile = useMediaQuery(MOBILE_MEDIA_QUERY);
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<{ kind: 'success' | 'error'; message: string } | null>(null);
  const titleId = useId();
  const bodyId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);

  const onConfirm = async () => {
    try {
      const answer = await cancel.mutateAsync({ id: subscriptionId });
      setResult({ kind: 'success', message: answer.message });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.subscriptions.pathKey() }),
        queryClient.invalidateQueries({ queryKey: trpc.plans.subscribers.pathKey() }),
      ]);
    } catch (failure) {
      setResult({ kind: 'error', message: errorText(toAppErrorView(failure)) });
    }
    setOpen(false);
  };

  return (
    <div className="subscriptions-cancel">
      {result ? <FormAlert kind={result.kind}>{result.message}</FormAlert> : null}
      {result?.kind === 'success' ? null : (
        <button
          type="button"
          className="button"
          onClick={() => {
            setResult(null);
            setOpen(true);
          }}
        >
          {t('cancel.button')}
        </button>
      )}
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        dismissible={!cancel.isPending}
        role="alertdialog"
        labelledBy={titleId}
        describedBy={bodyId}
        initialFocus={keepRef}
        className="plans-dialog"
      >
        <h2 id={titleId}>{t('cancel.title')}</h2>
        <p id={bodyId}>
          {paidThrough ? t('cancel.body', { date: formatTransactionDate(paidThrough, mobile ? 'short' : 'long') }) : t('cancel.bodyNoDate')}
        </p>
        <div className="wallet-dialog-actions">
          <button type="button" className="button" ref={keepRef} disabled={cancel.isPending} onClick={() => setOpen(false)}>
            {t('cancel.keep')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={cancel.isPending}
            aria-busy={cancel.isPending || undefined}
            onClick={() => void onConfirm()}
          >
            {cancel.isPending ? t('cancel.cancelling') : t('cancel.confirm')}
          </button>
        </div>
      </Modal>
    </div>
  );
}

/**
 * The payer's refund claim page, `/refund/{refundId}#{token}` (issue 27, ADR 087), open to anyone
 * with the link, mobile first like the hosted invoice page: who refunds how much and for what,
 * and while the refund awaits its claim, one field for the payer's millix address. The token is
 * the URL's fragment, read here from the location, so it never reaches a server log or a Referer
 * header. Once claimed the page says where the MLX went and follows the payout (polled while it is
 * pending) from on its way to sent; a canceled or failed refund says so; a wrong or missing token
 * reads as the server's not-valid message. The server's field errors (an address that is not
 * one, of another network, or the merchant's own) show at the field; its other refusals above the
 * button, the link still usable.
 */
import type { RefundClaimOutput } from '@quern/core/invoices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { type AppErrorView, toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { TextField } from '../../ui/TextField.js';
import { displayParams, formatMlxWire, formatStyledDate } from '../../ui/displayFormat.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import './invoice.css';
import './refund-claim.css';

/** How often the page asks for the payout's outcome while it is on its way. */
const POLL_MS = 3000;

/** The claim link's token: the URL's fragment, without its '#'. */
export const claimTokenOf = (hash: string): string => hash.replace(/^#/, '');

export default function RefundClaimPage() {
  const { t } = useTranslation('refundClaim');
  useDocumentTitle(t('title'));
  const { refundId = '' } = useParams();
  const token = claimTokenOf(useLocation().hash);
  const trpc = useTRPC();
  const refund = useQuery(
    trpc.invoices.refundClaim.queryOptions(
      { refundId, token },
      { retry: false, refetchInterval: (query) => (query.state.data?.status === 'pending' ? POLL_MS : false) },
    ),
  );
  const messageText = useMessageText();
  if (refund.isPending) return <main className="invoice-page" aria-busy="true" />;
  if (refund.error) {
    const view = toAppErrorView(refund.error);
    return (
      <main className="invoice-page">
        <section className="invoice-card" aria-labelledby="refund-title">
          <h1 id="refund-title">{t('title')}</h1>
          <p role="alert" data-testid="refund-claim-error">
            {messageText({ key: view.messageKey, fallback: view.message })}
          </p>
        </section>
      </main>
    );
  }
  return <RefundView refund={refund.data} token={token} />;
}

function RefundView({ refund, token }: { refund: RefundClaimOutput; token: string }) {
  const { t } = useTranslation('refundClaim');
  const language = useLanguage();
  const [claimedHere, setClaimedHere] = useState(false);
  const amount = formatMlxWire(refund.amount_mlx, language) ?? refund.amount_mlx;
  return (
    <main className="invoice-page">
      <section className="invoice-card" aria-labelledby="refund-title">
        <p className="invoice-merchant">
          {t('refundFrom')} <strong>{refund.merchant.name}</strong> <span className="invoice-username">@{refund.merchant.username}</span>
        </p>
        <h1 id="refund-title" className="invoice-amount" data-testid="refund-amount">
          {t('amount', { amount })}
        </h1>
        {refund.description !== null ? <p className="invoice-description">{refund.description}</p> : null}
        {refund.reference !== null ? <p className="invoice-reference">{t('reference', { reference: refund.reference })}</p> : null}
        {refund.status === 'awaiting_claim' ? (
          <ClaimForm refund={refund} token={token} onClaimed={() => setClaimedHere(true)} />
        ) : (
          <RefundOutcome refund={refund} amount={amount} claimedHere={claimedHere} />
        )}
      </section>
    </main>
  );
}

function RefundOutcome({ refund, amount, claimedHere }: { refund: RefundClaimOutput; amount: string; claimedHere: boolean }) {
  const { t } = useTranslation(['refundClaim', 'errors']);
  if (refund.status === 'canceled' || refund.status === 'failed')
    return (
      <div className={`invoice-status refund-status-${refund.status}`}>
        <p role="status" data-testid="refund-status" data-status={refund.status}>
          {refund.status === 'canceled' ? t('errors:refundClaimCanceled') : t('failed')}
        </p>
      </div>
    );
  const sent = refund.status === 'succeeded';
  return (
    <div className={`invoice-status refund-status-${refund.status}`}>
      {/* Whoever opens the link again (or lost the race to claim it) learns first that it is used. */}
      {claimedHere ? null : (
        <p data-testid="refund-already-claimed">
          {t('alreadyClaimed')}
          {refund.claimed_at !== null ? ` ${t('claimedOn', { date: formatStyledDate(refund.claimed_at, 'long') })}` : ''}
        </p>
      )}
      <p role="status" aria-live="polite" data-testid="refund-status" data-status={refund.status}>
        {sent ? t('sent') : t('onItsWay')}
      </p>
      <p className="refund-status-text">{sent ? t('sentText', { amount }) : t('onItsWayText', { amount })}</p>
      {refund.to_address !== null ? (
        <p className="invoice-address">
          <span className="visually-hidden">{t('sentTo')}: </span>
          <code data-testid="refund-to-address">{refund.to_address}</code>
        </p>
      ) : null}
    </div>
  );
}

/** The server's message for a refusal, its MLX parameters grouped as every amount on screen. */
function useRefusalText(): (view: AppErrorView, key?: string) => string {
  const messageText = useMessageText();
  const language = useLanguage();
  return (view, key = view.messageKey) =>
    messageText({ key, params: displayParams(view.params, language), ...(key === view.messageKey ? { fallback: view.message } : {}) });
}

function ClaimForm({ refund, token, onClaimed }: { refund: RefundClaimOutput; token: string; onClaimed: () => void }) {
  const { t } = useTranslation('refundClaim');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const claim = useMutation(trpc.invoices.claimRefund.mutationOptions());
  const refusalText = useRefusalText();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  // The button is disabled once the first click's render lands; this refuses a second click before it.
  const submitting = useRef(false);
  const [busy, setBusy] = useState(false);
  const fieldId = useId();
  const errorId = useId();
  const queryKey = trpc.invoices.refundClaim.queryKey({ refundId: refund.refund_id, token });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current) return;
    setFieldError(null);
    setFormError(null);
    if (address.trim() === '') {
      setFieldError(t('addressRequired'));
      return;
    }
    submitting.current = true;
    setBusy(true);
    try {
      const claimed = await claim.mutateAsync({ refundId: refund.refund_id, token, address: address.trim() });
      onClaimed();
      queryClient.setQueryData(queryKey, claimed);
    } catch (failure) {
      const view = toAppErrorView(failure);
      const field = view.fields.address;
      if (field !== undefined) setFieldError(refusalText(view, field));
      else setFormError(refusalText(view));
      // Claimed or canceled meanwhile: the page shows how the refund stands now.
      if (view.code === 'CONFLICT' || view.code === 'NOT_FOUND') await queryClient.invalidateQueries({ queryKey });
    } finally {
      submitting.current = false;
      setBusy(false);
    }
  };

  return (
    <form className="refund-claim-form" onSubmit={(e) => void onSubmit(e)} noValidate aria-describedby={`${fieldId}-intro`}>
      <p id={`${fieldId}-intro`} className="refund-claim-intro">
        {t('intro')}
      </p>
      <TextField
        id={fieldId}
        label={t('address')}
        hint={t('addressHint')}
        value={address}
        onValueChange={setAddress}
        errorText={fieldError}
        autoComplete="off"
        autoCapitalize="off"
        autoCorrect="off"
        spellCheck={false}
        required
        data-testid="refund-claim-address"
      />
      {formError !== null ? (
        <FormAlert id={errorId} kind="error">
          {formError}
        </FormAlert>
      ) : null}
      <button type="submit" className="button button-primary" disabled={busy} data-testid="refund-claim-submit">
        {busy ? t('claiming') : t('claim')}
      </button>
    </form>
  );
}

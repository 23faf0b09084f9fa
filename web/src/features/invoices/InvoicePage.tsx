/**
 * The hosted invoice page, `/i/{id}` (issue 27, ADR 081), open to anyone with the link, mobile
 * first: who is paid and how much, the QR code of the payment URI (rendered by the server, shown
 * as an image), the address with Copy, a countdown, and the status as it changes (polled every two
 * seconds, no reload) from open to processing to paid, then a link back to the shop. A signed-in
 * Quern user can pay from their balance in one step ('Pay with Quern'; the server asks for the
 * password or two-factor code again when the sign-in is not recent). Expired and void invoices say
 * so and show no address.
 */
import type { InvoicePublicOutput } from '@quern/core/invoices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { formatMlxWire, formatRateWire, formatUsdWire } from '../../ui/displayFormat.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useAuth } from '../auth/AuthProvider.js';
import { useReauthentication } from '../merchant-keys/ReauthenticateDialog.js';
import { formatCountdown, secondsLeft } from './countdown.js';
import './invoice.css';

/** How often the page asks for the status while the invoice can still change. */
const POLL_MS = 2000;
const FINAL = new Set<InvoicePublicOutput['status']>(['paid', 'expired', 'void']);

export default function InvoicePage() {
  const { t } = useTranslation('invoices');
  useDocumentTitle(t('title'));
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const invoice = useQuery(
    trpc.invoices.public.queryOptions(
      { id },
      { retry: false, refetchInterval: (query) => (query.state.data && FINAL.has(query.state.data.status) ? false : POLL_MS) },
    ),
  );
  const messageText = useMessageText();
  if (invoice.isPending) return <main className="invoice-page" aria-busy="true" />;
  if (invoice.error) {
    const view = toAppErrorView(invoice.error);
    return (
      <main className="invoice-page">
        <h1>{t('title')}</h1>
        <p role="alert">{messageText({ key: view.messageKey, fallback: view.message })}</p>
      </main>
    );
  }
  return <InvoiceView invoice={invoice.data} />;
}

function InvoiceView({ invoice }: { invoice: InvoicePublicOutput }) {
  const { t } = useTranslation('invoices');
  const language = useLanguage();
  const mlx = (wire: string) => formatMlxWire(wire, language) ?? wire;
  const payable = invoice.address !== null;
  return (
    <main className="invoice-page">
      <section className="invoice-card" aria-labelledby="invoice-title">
        <p className="invoice-merchant">
          {t('payTo')} <strong>{invoice.merchant.name}</strong> <span className="invoice-username">@{invoice.merchant.username}</span>
        </p>
        <h1 id="invoice-title" className="invoice-amount" data-testid="invoice-amount">
          {t('amount', { amount: mlx(invoice.amount_mlx) })}
        </h1>
        {invoice.amount_usd !== null ? (
          <p className="invoice-usd" data-testid="invoice-usd">
            {t('pricedInUsd', {
              usd: formatUsdWire(invoice.amount_usd, language) ?? invoice.amount_usd,
              rate: invoice.usd_rate === null ? '' : formatRateWire(invoice.usd_rate, language),
            })}
          </p>
        ) : null}
        {invoice.description !== null ? <p className="invoice-description">{invoice.description}</p> : null}
        {invoice.reference !== null ? <p className="invoice-reference">{t('reference', { reference: invoice.reference })}</p> : null}
        <InvoiceStatusLine invoice={invoice} mlx={mlx} />
        {payable ? <WhereToPay invoice={invoice} /> : null}
        {payable ? <PayWithQuern invoice={invoice} /> : null}
      </section>
    </main>
  );
}

function InvoiceStatusLine({ invoice, mlx }: { invoice: InvoicePublicOutput; mlx: (wire: string) => string }) {
  const { t } = useTranslation('invoices');
  const text = {
    open: t('status.open'),
    processing: t('status.processing', { amount: mlx(invoice.amount_pending_mlx) }),
    partially_paid: t('status.partiallyPaid', { paid: mlx(invoice.amount_paid_mlx), missing: mlx(invoice.amount_due_mlx) }),
    paid: invoice.paid_late ? t('status.paidLate') : t('status.paid'),
    expired: t('status.expired'),
    void: t('status.void'),
  }[invoice.status];
  return (
    <div className={`invoice-status invoice-status-${invoice.status}`}>
      <p role="status" aria-live="polite" data-testid="invoice-status" data-status={invoice.status}>
        {text}
      </p>
      {invoice.status === 'paid' && invoice.redirect_url !== null ? (
        <a className="button button-primary" href={invoice.redirect_url} rel="noopener noreferrer">
          {t('backToShop')}
        </a>
      ) : null}
    </div>
  );
}

function WhereToPay({ invoice }: { invoice: InvoicePublicOutput }) {
  const { t } = useTranslation('invoices');
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = secondsLeft(invoice.expires_at, now);
  return (
    <div className="invoice-pay">
      {invoice.qr_svg !== null ? (
        <img
          className="invoice-qr"
          data-testid="invoice-qr"
          src={`data:image/svg+xml;utf8,${encodeURIComponent(invoice.qr_svg)}`}
          alt={t('qrAlt')}
          width={256}
          height={256}
        />
      ) : null}
      <p className="invoice-hint">{t('scanHint')}</p>
      <p className="invoice-address">
        <code data-testid="invoice-address">{invoice.address}</code>
      </p>
      <CopyButton text={invoice.address ?? ''} what={t('address')} testId="invoice-copy-address" />
      <p className="invoice-countdown">
        {t('expiresIn')}{' '}
        <time dateTime={invoice.expires_at} data-testid="invoice-countdown">
          {formatCountdown(left)}
        </time>
      </p>
    </div>
  );
}

function PayWithQuern({ invoice }: { invoice: InvoicePublicOutput }) {
  const { t } = useTranslation('invoices');
  const { state } = useAuth();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const messageText = useMessageText();
  const pay = useMutation(trpc.invoices.pay.mutationOptions());
  const { withReauthentication, dialog } = useReauthentication();
  const language = useLanguage();
  const [error, setError] = useState<string | null>(null);
  if (state.loading) return null;
  if (!state.isAuthenticated)
    return (
      <p className="invoice-quern">
        <Link to={`/login?next=${encodeURIComponent(`/i/${invoice.id}`)}`}>{t('signInToPay')}</Link>
      </p>
    );
  // A payment on its way must settle first: the balance pays only what is still missing.
  const canPay = invoice.status === 'open' || invoice.status === 'partially_paid';
  const onPay = async () => {
    setError(null);
    try {
      const paid = await withReauthentication(() => pay.mutateAsync({ id: invoice.id }));
      if (paid) queryClient.setQueryData(trpc.invoices.public.queryKey({ id: invoice.id }), paid);
    } catch (failure) {
      const view = toAppErrorView(failure);
      setError(messageText({ key: view.messageKey, fallback: view.message }));
    }
  };
  return (
    <div className="invoice-quern">
      <button type="button" className="button button-primary" disabled={!canPay || pay.isPending} onClick={() => void onPay()}>
        {pay.isPending
          ? t('paying')
          : t('payWithQuern', { amount: formatMlxWire(invoice.amount_due_mlx, language) ?? invoice.amount_due_mlx })}
      </button>
      {error !== null ? <FormAlert kind="error">{error}</FormAlert> : null}
      {dialog}
    </div>
  );
}

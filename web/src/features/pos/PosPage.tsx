/**
 * /pos, the point of sale (ADR 085): a merchant types an amount on a keypad (MLX whole, or USD
 * with cents), charges it as an invoice, and shows its QR code full screen for the customer to
 * scan. The status is polled every two seconds (no reload) until the invoice is paid, expired or
 * void; Cancel voids an open invoice. The last 20 sales sit below the keypad. The page installs
 * as a web app: its manifest is linked here and a service worker scoped to /pos keeps the shell
 * so the keypad opens offline (invoices always come from the server).
 */
import type { InvoicePublicOutput } from '@quern/core/invoices';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { decimalSeparator } from '../../i18n/format.js';
import { useTRPC } from '../../app/data/trpc.js';
import { formatMlxWire, formatStyledDate, formatRateWire, formatUsdWire } from '../../ui/displayFormat.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { newIdempotencyKey } from '../../ui/idempotencyKey.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { amountForServer, isChargeable, type PosCurrency, type PosKey, pressKey, shownAmount, switchCurrency } from './keypad.js';
import { registerPosWorker } from './registerWorker.js';
import './pos.css';

/** How often the sale's status is asked for while it can still change. */
const POLL_MS = 2000;
const RECENT_SALES = 20;
const FINAL = new Set<InvoicePublicOutput['status']>(['paid', 'expired', 'void']);

export default function PosPage() {
  const { t } = useTranslation('pos');
  useDocumentTitle(t('title'));
  const [saleId, setSaleId] = useState<string | null>(null);
  useEffect(() => registerPosWorker(), []);
  return (
    <div className="pos-page">
      {/* React puts these in the document's head (the /pos page alone links the manifest). */}
      <link rel="manifest" href="/pos.webmanifest" />
      <h1 className="pos-title">{t('title')}</h1>
      {saleId === null ? <Keypad onCharged={setSaleId} /> : <Sale id={saleId} onDone={() => setSaleId(null)} />}
      <RecentSales />
    </div>
  );
}

const DIGIT_KEYS: PosKey[] = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];

function Keypad({ onCharged }: { onCharged(id: string): void }) {
  const { t } = useTranslation('pos');
  const language = useLanguage();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const messageText = useMessageText();
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<PosCurrency>('MLX');
  const [error, setError] = useState<string | null>(null);
  // Offline, TanStack Query would hold the call until the connection is back (the button stuck on
  // 'Creating the invoice…', then a sale nobody is waiting for): it fails at once instead.
  const create = useMutation(trpc.invoices.create.mutationOptions({ networkMode: 'always' }));
  // A second tap before React re-renders the disabled button must not make a second invoice.
  const charging = useRef(false);
  const press = (key: PosKey) => {
    setError(null);
    setAmount((current) => pressKey(current, key, currency));
  };
  const onCurrency = (next: PosCurrency) => {
    setCurrency(next);
    setAmount((current) => switchCurrency(current, next));
  };
  const onCharge = async () => {
    if (charging.current || !isChargeable(amount)) return;
    // The keypad opens offline (its service worker keeps the page), but only the server makes invoices.
    if (!navigator.onLine) {
      setError(t('offline'));
      return;
    }
    charging.current = true;
    setError(null);
    try {
      // One key per charge: a retry after a failure is a new attempt the merchant chose to make.
      const invoice = await create.mutateAsync({
        amount: amountForServer(amount, currency),
        currency,
        idempotencyKey: newIdempotencyKey(),
      });
      await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.queryKey() });
      setAmount('');
      onCharged(invoice.id);
    } catch (failure) {
      const view = toAppErrorView(failure);
      // No answer from the server because the connection dropped meanwhile: say so, not 'Something went wrong'.
      if (view.code === null && !navigator.onLine) setError(t('offline'));
      else setError(messageText({ key: view.fields.amount ?? view.messageKey, fallback: view.message }));
    } finally {
      charging.current = false;
    }
  };
  const shown = shownAmount(amount, currency, language);
  return (
    <section className="pos-keypad-card" aria-labelledby="pos-amount-label">
      <p className="pos-intro">{t('intro')}</p>
      <fieldset className="pos-currency">
        <legend className="visually-hidden">{t('currency')}</legend>
        {(['MLX', 'USD'] as const).map((option) => (
          <button
            key={option}
            type="button"
            className="pos-currency-option"
            aria-pressed={currency === option}
            onClick={() => onCurrency(option)}
          >
            {option}
          </button>
        ))}
      </fieldset>
      <p id="pos-amount-label" className="visually-hidden">
        {t('amountLabel')}
      </p>
      <output className="pos-amount" aria-labelledby="pos-amount-label" aria-live="polite" data-testid="pos-amount">
        {shown} <span className="pos-amount-currency">{currency}</span>
      </output>
      <fieldset className="pos-keys">
        <legend className="visually-hidden">{t('keypad')}</legend>
        {DIGIT_KEYS.map((key) => (
          <button key={key} type="button" className="pos-key" onClick={() => press(key)}>
            {key}
          </button>
        ))}
        {currency === 'USD' ? (
          <button type="button" className="pos-key" aria-label={t('decimalPoint')} onClick={() => press('.')}>
            {decimalSeparator(language)}
          </button>
        ) : (
          <button type="button" className="pos-key" onClick={() => press('00')}>
            00
          </button>
        )}
        <button type="button" className="pos-key" onClick={() => press('0')}>
          0
        </button>
        <button type="button" className="pos-key" aria-label={t('backspace')} onClick={() => press('backspace')}>
          ⌫
        </button>
      </fieldset>
      <div className="pos-actions">
        <button type="button" className="button pos-clear" onClick={() => press('clear')}>
          {t('clear')}
        </button>
        <button
          type="button"
          className="button button-primary pos-charge"
          disabled={!isChargeable(amount) || create.isPending}
          onClick={() => void onCharge()}
        >
          {create.isPending ? t('charging') : t('charge')}
        </button>
      </div>
      {error !== null ? <FormAlert kind="error">{error}</FormAlert> : null}
    </section>
  );
}

function Sale({ id, onDone }: { id: string; onDone(): void }) {
  const { t } = useTranslation('pos');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const messageText = useMessageText();
  const language = useLanguage();
  const sale = useQuery(
    trpc.invoices.public.queryOptions(
      { id },
      { retry: false, refetchInterval: (query) => (query.state.data && FINAL.has(query.state.data.status) ? false : POLL_MS) },
    ),
  );
  const cancel = useMutation(trpc.invoices.void.mutationOptions());
  const [error, setError] = useState<string | null>(null);
  const status = sale.data?.status;
  useEffect(() => {
    if (status !== undefined && FINAL.has(status)) void queryClient.invalidateQueries({ queryKey: trpc.invoices.list.queryKey() });
  }, [status, queryClient, trpc]);
  const onCancel = async () => {
    setError(null);
    try {
      await cancel.mutateAsync({ id });
      await queryClient.invalidateQueries({ queryKey: trpc.invoices.list.queryKey() });
      onDone();
    } catch (failure) {
      const view = toAppErrorView(failure);
      setError(messageText({ key: view.messageKey, fallback: view.message }));
      void sale.refetch();
    }
  };
  const mlx = (wire: string) => formatMlxWire(wire, language) ?? wire;
  const invoice = sale.data;
  const failure = sale.error ? toAppErrorView(sale.error) : null;
  return (
    <section className={`pos-sale pos-sale-${invoice?.status ?? 'loading'}`} aria-labelledby="pos-sale-amount" data-testid="pos-sale">
      {invoice === undefined ? (
        <>
          <h2 id="pos-sale-amount">{t('title')}</h2>
          {failure !== null ? <p role="alert">{messageText({ key: failure.messageKey, fallback: failure.message })}</p> : null}
          <button type="button" className="button" onClick={onDone}>
            {t('backToKeypad')}
          </button>
        </>
      ) : invoice.status === 'paid' ? (
        <div className="pos-paid" role="status" data-testid="pos-paid">
          <span className="pos-paid-mark" aria-hidden="true">
            ✓
          </span>
          <h2 id="pos-sale-amount">{t('paid')}</h2>
          <p>{t('paidDetail', { amount: mlx(invoice.amount_paid_mlx) })}</p>
          <button type="button" className="button button-primary pos-big-button" onClick={onDone}>
            {t('newSale')}
          </button>
        </div>
      ) : (
        <>
          <h2 id="pos-sale-amount" className="pos-sale-amount" data-testid="pos-sale-amount">
            {t('amountMlx', { amount: mlx(invoice.amount_mlx) })}
          </h2>
          {invoice.amount_usd !== null ? (
            <p className="pos-sale-usd" data-testid="pos-sale-usd">
              {t('priced', {
                usd: formatUsdWire(invoice.amount_usd, language) ?? invoice.amount_usd,
                rate: invoice.usd_rate === null ? '' : formatRateWire(invoice.usd_rate, language),
              })}
            </p>
          ) : null}
          {invoice.qr_svg !== null ? (
            <>
              <img
                className="pos-qr"
                data-testid="pos-qr"
                src={`data:image/svg+xml;utf8,${encodeURIComponent(invoice.qr_svg)}`}
                alt={t('qrAlt')}
                width={320}
                height={320}
              />
              <p className="pos-scan">{t('scanToPay')}</p>
            </>
          ) : null}
          <p className="pos-sale-status" role="status" aria-live="polite" data-testid="pos-status" data-status={invoice.status}>
            {
              {
                open: t('waiting'),
                processing: t('processing'),
                partially_paid: t('partiallyPaid', { paid: mlx(invoice.amount_paid_mlx), missing: mlx(invoice.amount_due_mlx) }),
                expired: t('expired'),
                void: t('void'),
              }[invoice.status]
            }
          </p>
          {error !== null ? <FormAlert kind="error">{error}</FormAlert> : null}
          {invoice.status === 'open' ? (
            <button type="button" className="button pos-big-button" disabled={cancel.isPending} onClick={() => void onCancel()}>
              {cancel.isPending ? t('cancelling') : t('cancel')}
            </button>
          ) : invoice.status === 'expired' || invoice.status === 'void' ? (
            <button type="button" className="button button-primary pos-big-button" onClick={onDone}>
              {t('backToKeypad')}
            </button>
          ) : null}
        </>
      )}
    </section>
  );
}

function RecentSales() {
  const { t } = useTranslation('pos');
  const language = useLanguage();
  const trpc = useTRPC();
  const list = useQuery(trpc.invoices.list.queryOptions({ limit: RECENT_SALES }));
  return (
    <section className="pos-recent" aria-labelledby="pos-recent-title">
      <h2 id="pos-recent-title">{t('recent')}</h2>
      {list.isPending ? null : list.error ? (
        <p role="alert">{t('loadFailed')}</p>
      ) : list.data.data.length === 0 ? (
        <p>{t('noSales')}</p>
      ) : (
        <ul className="pos-recent-list" data-testid="pos-recent">
          {list.data.data.map((invoice) => (
            <li key={invoice.id} className="pos-recent-row">
              <strong>{t('amountMlx', { amount: formatMlxWire(invoice.amount_mlx, language) ?? invoice.amount_mlx })}</strong>
              <time dateTime={invoice.created_at}>{formatStyledDate(invoice.created_at, 'short')}</time>
              <span className={`pos-recent-status pos-recent-status-${invoice.status}`}>{t(`status.${invoice.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

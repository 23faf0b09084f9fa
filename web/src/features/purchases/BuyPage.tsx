/**
 * /millix/buy (spec, Buy; section 4: form, then after the checks the PayPal view). The form
 * quotes the amount at the current rate; Continue checks it (buyChecks.ts) and opens the PayPal
 * view, 'Purchase N MLX for X USD' with PayPal's buttons and a way back to change the amount.
 *
 * The page always runs in a document loaded at /millix/buy: only that document carries the
 * headers PayPal's SDK and popup need (api/src/http/static-web.ts), so a client-side arrival
 * from another page reloads it (documentLoad.ts).
 */
import { formatUsdCents, parseExchangeRate, type ExchangeRate } from '@quern/core/wallet';
import { type CreatedOrder, usdCentsToText } from '@quern/core/purchases';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { formatAmountDigits } from '../../ui/amountInput.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useExchangeRate } from '../../app/data/useExchangeRate.js';
import { useLogFailure } from '../../ui/useLogFailure.js';
import { BuyDialogs } from './BuyDialogs.js';
import { BuyForm } from './BuyForm.js';
import { type AmountEntry, type BuyCurrency, switchCurrency } from './buyAmount.js';
import { checkPurchase, type PurchaseQuote } from './buyChecks.js';
import { documentDecisionFor, useOwnDocument } from './documentLoad.js';
import { PayPalCheckout } from './PayPalCheckout.js';
import { CheckoutNoticeView } from './CheckoutNotice.js';
import { type BuyDialogState, usePurchaseCheckout } from './usePurchaseCheckout.js';
import '../../ui/forms.css';
import './buy.css';

export const BUY_PATH = '/millix/buy';

const readRate = (text: string | null | undefined): ExchangeRate | null => {
  if (!text) return null;
  const parsed = parseExchangeRate(text);
  return parsed.ok ? parsed.rate : null;
};

function PayPalView({
  quote,
  language,
  setDialog,
  onQuoteChange,
  onChangeAmount,
}: {
  quote: PurchaseQuote;
  language: Language;
  setDialog(dialog: BuyDialogState): void;
  onQuoteChange(quote: PurchaseQuote): void;
  onChangeAmount(): void;
}) {
  const { t } = useTranslation('buy');
  const trpc = useTRPC();
  const setup = useQuery(trpc.purchases.setup.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  useLogFailure('PayPal setup', setup.error);
  const handlers = usePurchaseCheckout({
    usdText: usdCentsToText(quote.usdCents),
    language,
    setDialog,
    // The server priced the order again; should the rate have moved since the quote, the heading
    // shows what will actually be credited.
    onOrderCreated: (order: CreatedOrder) => onQuoteChange({ ...quote, usdCents: BigInt(order.usdCents), mlx: BigInt(order.mlx) }),
  });
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="buy-paypal">
      <h2 className="buy-purchase" ref={headingRef} tabIndex={-1}>
        {t('purchase', { mlx: formatAmountDigits(quote.mlx.toString(10), language), usd: formatUsdCents(quote.usdCents, language) })}
      </h2>
      <p className="buy-paypal-note">{t('paypalNote')}</p>
      <CheckoutNoticeView notice={handlers.notice} />
      {setup.data ? (
        <PayPalCheckout paypal={setup.data.paypal} language={language} handlers={handlers} />
      ) : setup.isError ? (
        <p className="form-alert form-alert-error" role="alert">
          {t('paypalUnavailable')}
        </p>
      ) : (
        <LoadingStatus />
      )}
      <button type="button" className="button button-block buy-change" onClick={onChangeAmount}>
        {t('changeAmount')}
      </button>
    </div>
  );
}

function BuyScreen() {
  const { t } = useTranslation('buy');
  useDocumentTitle(t('pageTitle'));
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const messageText = useMessageText();
  const language = useLanguage();
  const rateQuery = useExchangeRate();
  useLogFailure('rate', rateQuery.error);
  const rate = readRate(rateQuery.data?.rate);
  const [entry, setEntry] = useState<AmountEntry>({ currency: 'USD', text: '' });
  const [quote, setQuote] = useState<PurchaseQuote | null>(null);
  const [dialog, setDialog] = useState<BuyDialogState>({ kind: 'none' });
  const [isChecking, setChecking] = useState(false);
  const amountRef = useRef<HTMLInputElement>(null);
  // The amount takes focus when the form comes back (Change amount) or after a refusal's Ok, so
  // the person can correct it at once; Continue, disabled while checking, has lost focus by then.
  const [focusAmount, setFocusAmount] = useState(0);

  useEffect(() => {
    if (focusAmount > 0 && dialog.kind === 'none') amountRef.current?.focus();
  }, [focusAmount, dialog.kind]);

  const onContinue = async () => {
    setChecking(true);
    const result = await checkPurchase(entry, {
      // Asked again, not read from the screen: the rate may have changed or be missing.
      rate: async () => readRate((await queryClient.fetchQuery(trpc.wallet.rate.queryOptions(undefined, { staleTime: 0 }))).rate),
      reserveMlx: async () =>
        BigInt((await queryClient.fetchQuery(trpc.purchases.reserveBalance.queryOptions(undefined, { staleTime: 0 }))).mlx),
    });
    setChecking(false);
    if (result.ok) setQuote(result.quote);
    else setDialog({ kind: 'error', message: messageText(result.messageKey) });
  };

  return (
    <>
      <section className="card buy-card" aria-labelledby="buy-title">
        <h1 id="buy-title">{t('title')}</h1>
        {quote === null ? (
          <BuyForm
            entry={entry}
            onEntryChange={setEntry}
            onCurrencyChange={(currency: BuyCurrency) => setEntry(switchCurrency(entry, currency, rate))}
            rate={rate}
            rateLoading={rateQuery.isPending}
            language={language}
            isChecking={isChecking}
            onContinue={() => void onContinue()}
            inputRef={amountRef}
          />
        ) : (
          <PayPalView
            quote={quote}
            language={language}
            setDialog={setDialog}
            onQuoteChange={setQuote}
            onChangeAmount={() => {
              setQuote(null);
              setFocusAmount((count) => count + 1);
            }}
          />
        )}
      </section>
      {/* Outside the card: its last child loses its bottom margin, which a dialog needs to centre. */}
      <BuyDialogs
        dialog={dialog}
        onDismissError={() => {
          setDialog({ kind: 'none' });
          if (quote === null) setFocusAmount((count) => count + 1);
        }}
        onDone={() => void navigate('/account')}
      />
    </>
  );
}

export default function BuyPage() {
  // Decided once per visit: the document does not change while the page is shown.
  const [decision] = useState(() => documentDecisionFor(BUY_PATH));
  useOwnDocument(decision, BUY_PATH);
  if (decision === 'reload') return <LoadingStatus />;
  return <BuyScreen />;
}

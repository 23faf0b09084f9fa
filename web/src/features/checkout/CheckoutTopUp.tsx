/**
 * Not enough MLX (the checkout's 4001 answer): the spec's message with the MLX missing, and three
 * top-ups through the Buy feature's PayPal flow (the same buttons and calls as /millix/buy): the
 * smallest multiple of 5 USD that covers what is missing, then 5 and 10 USD more (core
 * topUpOptionsUsdCents). Once the top-up is credited, 'Complete order' pays the same checkout.
 */
import { topUpOptionsUsdCents, usdCentsToText } from '@quern/core/purchases';
import { formatUsdCents, parseExchangeRate } from '@quern/core/wallet';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { PayPalCheckout } from '../buy/PayPalCheckout.js';
import { type BuyDialogState, usePurchaseCheckout } from '../buy/usePurchaseCheckout.js';
import { formatAmountDigits } from '../wallet/amountInput.js';

/** The top-up amounts in USD cents, or none when the rate is missing or unreadable. */
export function topUpChoices(debit: string, rate: string | null): bigint[] {
  if (!rate || !/^[0-9]+$/.test(debit)) return [];
  const parsed = parseExchangeRate(rate);
  return parsed.ok ? topUpOptionsUsdCents(BigInt(debit), parsed.rate) : [];
}

function TopUpPayPal({ usdCents, language, setDialog }: { usdCents: bigint; language: Language; setDialog(d: BuyDialogState): void }) {
  const { t } = useTranslation('checkout');
  const trpc = useTRPC();
  const setup = useQuery(trpc.purchases.setup.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const handlers = usePurchaseCheckout({ usdText: usdCentsToText(usdCents), language, setDialog, onOrderCreated: () => {} });
  return (
    <div className="checkout-paypal">
      <h3>{t('topUpChosen', { usd: formatUsdCents(usdCents, language) })}</h3>
      {setup.data ? (
        <PayPalCheckout paypal={setup.data.paypal} language={language} handlers={handlers} />
      ) : setup.isError ? (
        <p className="form-alert form-alert-error" role="alert">
          {t('topUpUnavailable')}
        </p>
      ) : (
        <LoadingStatus />
      )}
    </div>
  );
}

export function CheckoutTopUp({
  debit,
  rate,
  language,
  isPaying,
  onCompleteOrder,
}: {
  debit: string;
  rate: string | null;
  language: Language;
  isPaying: boolean;
  onCompleteOrder(): void;
}) {
  const { t } = useTranslation('checkout');
  const { t: tBuy } = useTranslation('buy');
  const [chosen, setChosen] = useState<bigint | null>(null);
  const [dialog, setDialog] = useState<BuyDialogState>({ kind: 'none' });
  const choices = topUpChoices(debit, rate);
  const credited = dialog.kind === 'success' || dialog.kind === 'pending';

  if (credited) {
    return (
      <div className="checkout-topup">
        <p className="form-alert form-alert-success" role="status">
          {dialog.kind === 'success' ? t('toppedUp') : t('topUpPending')}
        </p>
        <button type="button" className="button button-primary button-block" disabled={isPaying} onClick={onCompleteOrder}>
          {isPaying ? t('paying') : t('completeOrder')}
        </button>
      </div>
    );
  }
  return (
    <div className="checkout-topup">
      <p className="form-alert form-alert-error" role="alert">
        {t('insufficient', { debit: formatAmountDigits(debit, language) })}
      </p>
      {dialog.kind === 'error' ? (
        <p className="form-alert form-alert-error" role="alert">
          {dialog.message}
        </p>
      ) : null}
      {dialog.kind === 'completing' ? (
        <p className="loading-status" role="status">
          {t('topUpCompleting')}
        </p>
      ) : null}
      {choices.length === 0 ? (
        <p className="form-alert form-alert-error">{t('topUpUnavailable')}</p>
      ) : chosen === null ? (
        <>
          <p className="checkout-topup-intro">{t('topUpIntro')}</p>
          <div className="checkout-topup-options">
            {choices.map((cents) => (
              <button key={cents.toString()} type="button" className="button button-block" onClick={() => setChosen(cents)}>
                {t('topUpOption', { usd: formatUsdCents(cents, language) })}
              </button>
            ))}
          </div>
        </>
      ) : (
        <>
          <p className="checkout-note">{tBuy('paypalNote')}</p>
          <TopUpPayPal usdCents={chosen} language={language} setDialog={setDialog} />
          <button
            type="button"
            className="button button-block"
            onClick={() => {
              setChosen(null);
              setDialog({ kind: 'none' });
            }}
          >
            {t('chooseAnother')}
          </button>
        </>
      )}
    </div>
  );
}

/**
 * Not enough MLX (the checkout's 4001 answer): the spec's message with the MLX missing, and three
 * top-ups through the Buy feature's PayPal flow (the same buttons and calls as /millix/buy): the
 * smallest multiple of 5 USD that covers what is missing, then 5 and 10 USD more (core
 * topUpOptionsUsdCents), each saying the MLX it buys at the rate the answer gave. Once the top-up
 * is credited, 'Complete order' pays the same checkout. A declined card or a closed PayPal window
 * is told as on the Buy page (CheckoutNoticeView). 'Choose another amount' sits beside the chosen
 * amount's heading, above PayPal's buttons, so a 480×720 popup shows it without scrolling.
 */
import { topUpOptionsUsdCents, usdCentsToText } from '@quern/core/purchases';
import { formatMlx, formatUsdCents, parseExchangeRate, usdCentsToMlx } from '@quern/core/wallet';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { CheckoutNoticeView } from '../purchases/CheckoutNotice.js';
import { PayPalCheckout } from '../purchases/PayPalCheckout.js';
import { type BuyDialogState, usePurchaseCheckout } from '../purchases/usePurchaseCheckout.js';
import { formatAmountDigits } from '../../ui/amountInput.js';

/** A top-up: the USD cents paid and the whole MLX they buy at the answer's rate (rounded down, as the server prices it). */
export interface TopUpChoice {
  usdCents: bigint;
  mlx: bigint;
}

/** The top-up amounts, or none when the rate is missing or unreadable. */
export function topUpChoices(debit: string, rate: string | null): TopUpChoice[] {
  if (!rate || !/^[0-9]+$/.test(debit)) return [];
  const parsed = parseExchangeRate(rate);
  if (!parsed.ok) return [];
  return topUpOptionsUsdCents(BigInt(debit), parsed.rate).map((usdCents) => ({ usdCents, mlx: usdCentsToMlx(usdCents, parsed.rate) }));
}

function TopUpPayPal({
  choice,
  language,
  setDialog,
  onChooseAnother,
}: {
  choice: TopUpChoice;
  language: Language;
  setDialog(d: BuyDialogState): void;
  onChooseAnother(): void;
}) {
  const { t } = useTranslation('checkout');
  const { t: tBuy } = useTranslation('buy');
  const trpc = useTRPC();
  const setup = useQuery(trpc.purchases.setup.queryOptions(undefined, { staleTime: Number.POSITIVE_INFINITY }));
  const handlers = usePurchaseCheckout({ usdText: usdCentsToText(choice.usdCents), language, setDialog, onOrderCreated: () => {} });
  return (
    <div className="checkout-paypal">
      <div className="checkout-paypal-head">
        <h3>{t('topUpChosen', { usd: formatUsdCents(choice.usdCents, language), mlx: formatMlx(choice.mlx, language) })}</h3>
        <button type="button" className="button" onClick={onChooseAnother}>
          {t('chooseAnother')}
        </button>
      </div>
      <CheckoutNoticeView notice={handlers.notice} />
      <p className="checkout-note">{tBuy('paypalNote')}</p>
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
  const [chosen, setChosen] = useState<TopUpChoice | null>(null);
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
            {choices.map((choice) => (
              <button key={choice.usdCents.toString()} type="button" className="button button-block" onClick={() => setChosen(choice)}>
                {t('topUpOption', { usd: formatUsdCents(choice.usdCents, language), mlx: formatMlx(choice.mlx, language) })}
              </button>
            ))}
          </div>
        </>
      ) : (
        <TopUpPayPal
          choice={chosen}
          language={language}
          setDialog={setDialog}
          onChooseAnother={() => {
            setChosen(null);
            setDialog({ kind: 'none' });
          }}
        />
      )}
    </div>
  );
}

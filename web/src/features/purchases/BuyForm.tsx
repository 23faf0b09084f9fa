/**
 * The Buy form (spec, Buy): '1 USD = N MLX', the exchange amount box (what the typed amount comes
 * to in the other currency), the purchase amount with its USD/MLX selector, the minimum/maximum
 * note and Continue. The checks Continue runs belong to the page (buyChecks.ts).
 */
import { formatUsdCents, type ExchangeRate } from '@quern/core/wallet';
import { PURCHASE_MAX_USD_CENTS, PURCHASE_MIN_USD_CENTS } from '@quern/core/purchases';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { formatAmountDigits } from '../../ui/amountInput.js';
import { BuyAmountInput } from './BuyAmountInput.js';
import { type AmountEntry, type BuyCurrency, exchangeOf, mlxPerUsd } from './buyAmount.js';

interface BuyFormProps {
  entry: AmountEntry;
  onEntryChange(entry: AmountEntry): void;
  onCurrencyChange(currency: BuyCurrency): void;
  /** The current rate; null while it loads or when there is none. */
  rate: ExchangeRate | null;
  rateLoading: boolean;
  language: Language;
  isChecking: boolean;
  onContinue(): void;
  inputRef: React.RefObject<HTMLInputElement | null>;
}

/** "5" and "500": whole dollars, as the spec writes the limits. */
const wholeUsd = (cents: bigint): string => (cents / 100n).toString(10);

function ExchangeBox({ entry, rate, language }: Pick<BuyFormProps, 'entry' | 'rate' | 'language'>) {
  const { t } = useTranslation('buy');
  const exchange = exchangeOf(entry, rate, language);
  // What the box shows is the other currency: MLX received for USD typed, USD paid for MLX typed.
  const other = entry.currency === 'USD' ? 'MLX' : 'USD';
  // Nothing typed reads as zero; something typed that cannot be converted yet (no rate) as a dash.
  const empty = entry.text !== '' ? '—' : other === 'MLX' ? '0' : formatUsdCents(0n, language);
  return (
    <div className="buy-exchange">
      <span className="buy-exchange-label" id="buy-exchange-label">
        {entry.currency === 'USD' ? t('youReceive') : t('youPay')}
      </span>
      <output className="buy-exchange-amount" htmlFor="buy-amount buy-currency" aria-labelledby="buy-exchange-label" aria-live="polite">
        {t(other === 'MLX' ? 'amountMlx' : 'amountUsd', { amount: exchange?.amount ?? empty })}
      </output>
    </div>
  );
}

function RateLine({ rate, rateLoading, language }: Pick<BuyFormProps, 'rate' | 'rateLoading' | 'language'>) {
  const { t } = useTranslation('buy');
  if (rate) return <p className="buy-rate">{t('rate', { mlx: formatAmountDigits(mlxPerUsd(rate).toString(10), language) })}</p>;
  return <p className="buy-rate buy-rate-missing">{rateLoading ? t('rateLoading') : t('rateUnavailable')}</p>;
}

export function BuyForm(props: BuyFormProps) {
  const { entry, onEntryChange, onCurrencyChange, rate, rateLoading, language, isChecking, onContinue, inputRef } = props;
  const { t } = useTranslation('buy');
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!isChecking) onContinue();
  };
  return (
    <form className="form buy-form" noValidate onSubmit={submit}>
      <RateLine rate={rate} rateLoading={rateLoading} language={language} />
      <ExchangeBox entry={entry} rate={rate} language={language} />
      <BuyAmountInput
        entry={entry}
        onEntryChange={onEntryChange}
        onCurrencyChange={onCurrencyChange}
        language={language}
        hintId="buy-limits"
        inputRef={inputRef}
      />
      <p className="field-hint buy-limits" id="buy-limits">
        {t('limits', { min: wholeUsd(PURCHASE_MIN_USD_CENTS), max: wholeUsd(PURCHASE_MAX_USD_CENTS) })}
      </p>
      <SubmitButton isSubmitting={isChecking} label={t('continue')} busyLabel={t('checking')} />
    </form>
  );
}

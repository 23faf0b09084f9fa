/**
 * The purchase amount with its USD/MLX selector (spec, Buy). USD is typed with a decimal point
 * and shown with two decimals once the field is left; MLX is whole digits grouped in thousands as
 * they are typed. Choosing the other currency converts the amount at the rate, so the person can
 * type either and see the other in the exchange box. The caret stays beside what it followed.
 */
import { useLayoutEffect, useReducer, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { caretAfterDigits, formatAmountDigits, readAmountInput } from '../../ui/amountInput.js';
import { type AmountEntry, BUY_CURRENCIES, type BuyCurrency, displayEntry, padUsdText, readUsdInput } from './buyAmount.js';

interface BuyAmountInputProps {
  entry: AmountEntry;
  onEntryChange(entry: AmountEntry): void;
  onCurrencyChange(currency: BuyCurrency): void;
  language: Language;
  /** The id of the minimum/maximum note, read with the field. */
  hintId: string;
  inputRef: React.RefObject<HTMLInputElement | null>;
}

/** What was typed, as a new entry in the same currency, and where the caret belongs in its text. */
function readTyped(entry: AmountEntry, typed: string, caret: number | null, language: Language): { entry: AmountEntry; caret: number } {
  if (entry.currency === 'USD') {
    const usd = readUsdInput(typed, caret);
    // The USD text is shown one character for one (only the decimal point differs by language).
    return { entry: { currency: 'USD', text: usd.text }, caret: usd.keptBeforeCaret };
  }
  const mlx = readAmountInput(typed, caret);
  return {
    entry: { currency: 'MLX', text: mlx.digits },
    caret: caretAfterDigits(formatAmountDigits(mlx.digits, language), mlx.digitsBeforeCaret),
  };
}

export function BuyAmountInput({ entry, onEntryChange, onCurrencyChange, language, hintId, inputRef }: BuyAmountInputProps) {
  const { t } = useTranslation('buy');
  const caret = useRef<number | null>(null);
  // A keystroke that changes nothing (a letter) still needs a render to put the caret back
  // where it was, after React resets the text.
  const [, rerender] = useReducer((count: number) => count + 1, 0);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    input.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  return (
    <div className="field buy-amount-field">
      <label htmlFor="buy-amount">{t('amount')}</label>
      <div className="buy-amount-row">
        <input
          ref={inputRef}
          id="buy-amount"
          name="buy-amount"
          type="text"
          inputMode={entry.currency === 'USD' ? 'decimal' : 'numeric'}
          autoComplete="off"
          value={displayEntry(entry, language)}
          onChange={(event) => {
            const typed = readTyped(entry, event.target.value, event.target.selectionStart, language);
            caret.current = typed.caret;
            onEntryChange(typed.entry);
            rerender();
          }}
          onBlur={() => {
            if (entry.currency === 'USD' && entry.text !== '') onEntryChange({ currency: 'USD', text: padUsdText(entry.text) });
          }}
          aria-describedby={hintId}
        />
        <select
          id="buy-currency"
          name="buy-currency"
          aria-label={t('currency')}
          value={entry.currency}
          onChange={(event) => onCurrencyChange(event.target.value as BuyCurrency)}
        >
          {BUY_CURRENCIES.map((currency) => (
            <option key={currency} value={currency}>
              {currency}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

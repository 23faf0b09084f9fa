/**
 * The Buy form's amount (spec, Buy; section 9: two decimals for USD, thousands separators for MLX).
 * The person types either USD or MLX; the other currency is derived with core's own conversions,
 * so the figures on screen are the ones the server prices with (usdCentsToMlx, rounded down).
 * Nothing here goes through a float.
 *
 * The entry keeps a canonical text: in USD the amount with a dot and at most two decimals
 * ("12.5"), in MLX its bare digits ("833333"). What the input shows is derived from it in the
 * language on screen.
 */
import { formatUsdCents, usdCentsToMlx, type ExchangeRate } from '@quern/core/wallet';
import { parseUsdAmount, usdCentsToText } from '@quern/core/purchases';
import type { Language } from '../../i18n/languages.js';
import { formatAmountDigits } from '../../ui/amountInput.js';

export const BUY_CURRENCIES = ['USD', 'MLX'] as const;
export type BuyCurrency = (typeof BUY_CURRENCIES)[number];

export interface AmountEntry {
  currency: BuyCurrency;
  /** USD: "12.5" (dot, at most two decimals, may end in a dot while typed); MLX: digits. */
  text: string;
}

/**
 * Whole dollars a USD entry may have: the largest purchase (500) has 3; more is a typing slip,
 * and a bound keeps BigInt and the layout away from absurd input.
 */
export const USD_INTEGER_DIGITS_MAX = 6;
const USD_DECIMALS = 2;
const decimalSeparatorOf: Record<Language, string> = { en: '.', es: ',' };

const isDigit = (char: string): boolean => char >= '0' && char <= '9';

export interface UsdTyped {
  /** The canonical USD text ('' when nothing usable was typed). */
  text: string;
  /** How many characters of `text` stand before the caret. */
  keptBeforeCaret: number;
}

/**
 * Reads what was typed into the USD input. Digits are kept; the first '.' or ',' is the decimal
 * point in either language (purchases stay below 1,000 USD, so a separator can only mean
 * decimals); anything else, later separators and a third decimal are dropped, as are leading
 * zeros ("007" → "7", but "0.5" keeps its zero and ".5" becomes "0.5").
 */
export function readUsdInput(typed: string, caret: number | null = typed.length): UsdTyped {
  const caretAt = caret ?? typed.length;
  let integer = '';
  let decimals: string | null = null;
  let keptBeforeCaret = 0;
  [...typed].forEach((char, index) => {
    let kept = false;
    if (isDigit(char)) {
      if (decimals === null && integer.length < USD_INTEGER_DIGITS_MAX) {
        integer += char;
        kept = true;
      } else if (decimals !== null && decimals.length < USD_DECIMALS) {
        decimals += char;
        kept = true;
      }
    } else if ((char === '.' || char === ',') && decimals === null) {
      decimals = '';
      kept = true;
    }
    if (kept && index < caretAt) keptBeforeCaret += 1;
  });
  // Leading zeros go, except the one before a decimal point or a lone "0".
  const withoutZeros = integer.replace(/^0+(?=\d)/, '');
  keptBeforeCaret -= Math.min(integer.length - withoutZeros.length, keptBeforeCaret);
  let whole = withoutZeros;
  if (decimals !== null && whole === '') {
    whole = '0';
    keptBeforeCaret += 1;
  }
  const text = decimals === null ? whole : `${whole}.${decimals}`;
  return { text, keptBeforeCaret: Math.min(keptBeforeCaret, text.length) };
}

/** The canonical USD text as the input shows it: "12.5" → "12,5" in Spanish. */
export function displayUsdText(text: string, language: Language): string {
  return text.replace('.', decimalSeparatorOf[language]);
}

/** "10" → "10.00", "10.5" → "10.50", "10." → "10.00"; '' stays '' (the input after it loses focus). */
export function padUsdText(text: string): string {
  if (text === '') return '';
  const [whole = '0', decimals = ''] = text.split('.');
  return `${whole}.${decimals.padEnd(USD_DECIMALS, '0')}`;
}

/** What the input shows for an entry in `language`. */
export function displayEntry(entry: AmountEntry, language: Language): string {
  return entry.currency === 'USD' ? displayUsdText(entry.text, language) : formatAmountDigits(entry.text, language);
}

/**
 * How many cents buy at least `mlx` at `rate`: the exact price rounded up to the cent, so that
 * the MLX the server gives for those cents (rounded down) is never less than what was typed.
 */
export function usdCentsForMlx(mlx: bigint, rate: ExchangeRate): bigint {
  if (mlx < 0n) throw new RangeError('usdCentsForMlx: the amount must not be negative');
  const scaled = mlx * rate.numerator * 100n;
  return (scaled + rate.denominator - 1n) / rate.denominator;
}

/** The USD the entry stands for, in cents; null when it is empty, unreadable or needs a missing rate. */
export function usdCentsOf(entry: AmountEntry, rate: ExchangeRate | null): bigint | null {
  if (entry.currency === 'USD') {
    const parsed = parseUsdAmount(entry.text.endsWith('.') ? entry.text.slice(0, -1) : entry.text);
    return parsed.ok ? parsed.usdCents : null;
  }
  if (entry.text === '' || rate === null) return null;
  return usdCentsForMlx(BigInt(entry.text), rate);
}

/** MLX one USD buys at `rate` (the spec's '1 USD = N MLX'), as the server would credit it. */
export const mlxPerUsd = (rate: ExchangeRate): bigint => usdCentsToMlx(100n, rate);

/** The entry in the other currency, converted at `rate`; with no rate the amount cannot be carried over. */
export function switchCurrency(entry: AmountEntry, to: BuyCurrency, rate: ExchangeRate | null): AmountEntry {
  if (entry.currency === to) return entry;
  const cents = usdCentsOf(entry, rate);
  if (cents === null || rate === null) return { currency: to, text: '' };
  return to === 'USD'
    ? { currency: 'USD', text: usdCentsToText(cents) }
    : { currency: 'MLX', text: usdCentsToMlx(cents, rate).toString(10) };
}

/**
 * The exchange box: the typed amount in the other currency ("833,333 MLX" for 10 USD, "10.00 USD"
 * for 800,000 MLX at 80,000 MLX per USD), or null when there is nothing to convert.
 */
export function exchangeOf(
  entry: AmountEntry,
  rate: ExchangeRate | null,
  language: Language,
): { currency: BuyCurrency; amount: string } | null {
  const cents = usdCentsOf(entry, rate);
  if (cents === null || rate === null) return null;
  if (entry.currency === 'USD') return { currency: 'MLX', amount: formatAmountDigits(usdCentsToMlx(cents, rate).toString(10), language) };
  return { currency: 'USD', amount: formatUsdCents(cents, language) };
}

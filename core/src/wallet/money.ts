/**
 * Money without floats. MLX amounts are bigint counts of whole MLX (millix has no smaller unit);
 * the total supply, 9e15, is above 2^53, so a JavaScript number cannot hold every amount
 * exactly. USD is a bigint count of cents. An exchange rate is an exact decimal, kept as a
 * fraction of two bigints. On the wire and in events amounts are decimal strings (JSON has no
 * bigint), converted only by mlxToWire / mlxFromWire.
 */
import { decimalSeparator, formatInteger, formatUsdCentsText } from '../i18n/format.js';
import type { Language } from '../i18n/index.js';

/** All millix that will ever exist. No amount, balance or sum of balances can exceed it. */
export const MLX_TOTAL_SUPPLY = 9_000_000_000_000_000n;
/** The fixed fee of every send (spec section 9), collected by the fee account. */
export const SEND_FEE_MLX = 1000n;
/** Longest amount text parseMlxAmount reads: 16 digits with 5 separators fits with room to spare. */
export const MLX_AMOUNT_TEXT_LENGTH_MAX = 40;
/** mlxFromWire accepts at most this many digits (the supply has 16; sums of two still fit). */
const MLX_WIRE_DIGITS_MAX = 20;

export type AmountErrorKey = 'errors:invalidAmount' | 'errors:amountTooLarge';
export type MlxAmountParseResult = { ok: true; amountMlx: bigint } | { ok: false; messageKey: AmountErrorKey };

/** Characters people type between thousands: comma, dot, space, no-break and narrow no-break space. */
const thousandsSeparators = new Set([',', '.', ' ', '\u00a0', '\u202f']);
const groupedDigits = (separator: string): RegExp => new RegExp(`^[0-9]{1,3}(?:${separator === '.' ? '\\.' : separator}[0-9]{3})+$`);

/**
 * Reads an amount as typed in the send form: digits, optionally grouped in thousands by one kind
 * of separator ("1,000,000", "1.000.000", "1 000 000"). Separators must sit between groups of
 * three digits: "1.5" or "1,50" is refused rather than read as 15 or 150, because a person who
 * typed them meant a fraction, and millix amounts are whole numbers.
 */
export function parseMlxAmount(text: string): MlxAmountParseResult {
  const invalid = { ok: false, messageKey: 'errors:invalidAmount' } as const;
  if (typeof text !== 'string' || text.length > MLX_AMOUNT_TEXT_LENGTH_MAX) return invalid;
  const trimmed = text.trim();
  if (trimmed.length === 0) return invalid;
  const separators = new Set([...trimmed].filter((char) => thousandsSeparators.has(char)));
  if (separators.size > 1) return invalid;
  const [separator] = separators;
  if (separator === undefined ? !/^[0-9]+$/.test(trimmed) : !groupedDigits(separator).test(trimmed)) return invalid;
  const amountMlx = BigInt(separator === undefined ? trimmed : trimmed.split(separator).join(''));
  if (amountMlx <= 0n) return invalid;
  if (amountMlx > MLX_TOTAL_SUPPLY) return { ok: false, messageKey: 'errors:amountTooLarge' };
  return { ok: true, amountMlx };
}

/** The canonical wire form: base-10 digits, no sign, no leading zeros. */
export function mlxToWire(amountMlx: bigint): string {
  if (typeof amountMlx !== 'bigint' || amountMlx < 0n) throw new RangeError(`mlxToWire: not a non-negative bigint: ${String(amountMlx)}`);
  return amountMlx.toString(10);
}

/** Reads the wire form; anything else (signs, separators, floats, exponents) is a bug upstream. */
export function mlxFromWire(text: string): bigint {
  if (typeof text !== 'string' || text.length > MLX_WIRE_DIGITS_MAX || !/^(0|[1-9][0-9]*)$/.test(text)) {
    throw new TypeError(`mlxFromWire: not a canonical MLX amount: ${JSON.stringify(text)}`);
  }
  return BigInt(text);
}

/**
 * "1,234,567" (en) or "1.234.567" (es), by Intl in the language's own rule (i18n/format.ts):
 * Spanish leaves a four-digit number ungrouped ("1234"), as the RAE writes it.
 */
export function formatMlx(amountMlx: bigint, language: Language): string {
  return formatInteger(amountMlx, language);
}

/** Two decimals, grouped: "1,234.50" (en) or "1234,50" (es). The caller adds "USD". */
export function formatUsdCents(cents: bigint, language: Language): string {
  return formatUsdCentsText(cents, language);
}

/** USD per 1 MLX, exactly: usdPerMlx = numerator / denominator, with denominator a power of ten. */
export interface ExchangeRate {
  /** Canonical decimal text, e.g. "0.000012"; what events and API responses carry. */
  readonly usdPerMlx: string;
  readonly numerator: bigint;
  readonly denominator: bigint;
}

export const RATE_INTEGER_DIGITS_MAX = 9;
export const RATE_FRACTION_DIGITS_MAX = 18;
const rateText = new RegExp(`^([0-9]{1,${RATE_INTEGER_DIGITS_MAX}})(?:\\.([0-9]{1,${RATE_FRACTION_DIGITS_MAX}}))?$`);

/** Reads a machine decimal ("0.000012", dot as the decimal point); the rate must be above 0. */
export function parseExchangeRate(text: string): { ok: true; rate: ExchangeRate } | { ok: false; messageKey: 'errors:invalidRate' } {
  const match = typeof text === 'string' ? rateText.exec(text.trim()) : null;
  if (!match) return { ok: false, messageKey: 'errors:invalidRate' };
  const integerDigits = match[1] ?? '0';
  const fractionDigits = (match[2] ?? '').replace(/0+$/, '');
  const denominator = 10n ** BigInt(fractionDigits.length);
  const numerator = BigInt(integerDigits) * denominator + BigInt(fractionDigits || '0');
  if (numerator === 0n) return { ok: false, messageKey: 'errors:invalidRate' };
  const integerText = BigInt(integerDigits).toString(10);
  const usdPerMlx = fractionDigits.length > 0 ? `${integerText}.${fractionDigits}` : integerText;
  return { ok: true, rate: { usdPerMlx, numerator, denominator } };
}

function assertRate(rate: ExchangeRate): void {
  if (rate.numerator <= 0n || rate.denominator <= 0n) throw new RangeError('exchange rate must be positive');
}

/**
 * The USD value of an MLX amount in cents, rounded half up (0.5 cent and above rounds up): the
 * dashboard's "USD equivalent", a display figure, so the nearest cent is the honest one.
 */
export function mlxToUsdCents(amountMlx: bigint, rate: ExchangeRate): bigint {
  assertRate(rate);
  if (amountMlx < 0n) throw new RangeError('mlxToUsdCents: amount must not be negative');
  const scaled = amountMlx * rate.numerator * 100n;
  return (2n * scaled + rate.denominator) / (2n * rate.denominator);
}

/**
 * How many whole MLX a number of cents buys, rounded down: the buyer never receives more MLX
 * than was paid for, so the reserve can never be drained by rounding.
 */
export function usdCentsToMlx(cents: bigint, rate: ExchangeRate): bigint {
  assertRate(rate);
  if (cents < 0n) throw new RangeError('usdCentsToMlx: cents must not be negative');
  return (cents * rate.denominator) / (rate.numerator * 100n);
}

/**
 * The rate the way people read it, "1 USD = N MLX": N grouped, with two decimals (cut, not
 * rounded) only when it is not whole, e.g. "80,000" at 0.0000125 and "83,333.33" at 0.000012.
 * Exact: N = denominator / numerator in integers, so no binary float ever shows.
 */
export function formatMlxPerUsd(rate: ExchangeRate, language: Language): string {
  assertRate(rate);
  const hundredths = (rate.denominator * 100n) / rate.numerator;
  const whole = formatInteger(hundredths / 100n, language);
  const exact = rate.denominator % rate.numerator === 0n;
  return exact ? whole : `${whole}${decimalSeparator(language)}${(hundredths % 100n).toString(10).padStart(2, '0')}`;
}

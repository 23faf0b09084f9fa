/**
 * The point of sale's keypad, pure: what a key does to the amount typed so far. MLX is whole
 * (no decimal point), USD takes two decimals; both are capped in length so the figure fits on a
 * phone and stays within what the server accepts (it checks the amount again all the same).
 */
import { decimalSeparator, formatMlx } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';

export type PosCurrency = 'MLX' | 'USD';

export type PosKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '00' | '.' | 'backspace' | 'clear';

/** Digits before the decimal point: 16 for MLX (the total supply has 17), 7 for USD (the server refuses more than 1,000,000.00 with its message). */
export const POS_WHOLE_DIGITS_MAX: Record<PosCurrency, number> = { MLX: 16, USD: 7 };
export const USD_DECIMALS_MAX = 2;

/** The amount after `key`; an entry the currency does not take leaves it unchanged. */
export function pressKey(amount: string, key: PosKey, currency: PosCurrency): string {
  if (key === 'clear') return '';
  if (key === 'backspace') return amount.slice(0, -1);
  if (key === '.') {
    if (currency === 'MLX' || amount.includes('.')) return amount;
    return amount === '' ? '0.' : `${amount}.`;
  }
  let next = amount;
  for (const digit of key) next = typeDigit(next, digit, currency);
  return next;
}

function typeDigit(amount: string, digit: string, currency: PosCurrency): string {
  const point = amount.indexOf('.');
  if (point >= 0) return amount.length - point - 1 >= USD_DECIMALS_MAX ? amount : amount + digit;
  // No leading zeros: '0' then '5' is '5', and '0' then '0' stays '0'.
  if (amount === '0') return digit === '0' ? amount : digit;
  if (amount === '' && digit === '0' && currency === 'MLX') return amount;
  return amount.length >= POS_WHOLE_DIGITS_MAX[currency] ? amount : amount + digit;
}

/** The amount converted for the other currency's rules: a switch to MLX drops the decimals. */
export function switchCurrency(amount: string, to: PosCurrency): string {
  if (to === 'USD') return amount;
  const whole = amount.split('.')[0] ?? '';
  return whole === '0' ? '' : whole;
}

/** Whether the amount can be charged: more than zero, and no dangling decimal point. */
export function isChargeable(amount: string): boolean {
  if (amount === '' || amount.endsWith('.')) return false;
  return /[1-9]/.test(amount);
}

/** The amount as the server reads it: USD always with two decimals ("12.5" is "12.50"). */
export function amountForServer(amount: string, currency: PosCurrency): string {
  if (currency === 'MLX') return amount;
  const [whole = '0', fraction = ''] = amount.split('.');
  return `${whole === '' ? '0' : whole}.${fraction.padEnd(USD_DECIMALS_MAX, '0')}`;
}

/**
 * The amount typed so far as the screen shows it, in the page's number format (ADR 058): the
 * whole part grouped ("12,500" en, "12.500" es; Spanish keeps four digits together), and for USD
 * the language's decimal mark followed by the decimals typed so far, none added ("12,5" es while
 * the second decimal is still to come). Nothing typed reads "0".
 */
export function shownAmount(amount: string, currency: PosCurrency, language: Language): string {
  if (amount === '') return '0';
  const point = amount.indexOf('.');
  const whole = point < 0 ? amount : amount.slice(0, point);
  if (!/^[0-9]+$/.test(whole)) return amount;
  const grouped = formatMlx(BigInt(whole), language);
  if (currency === 'MLX' || point < 0) return grouped;
  return `${grouped}${decimalSeparator(language)}${amount.slice(point + 1)}`;
}

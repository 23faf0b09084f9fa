/**
 * The send form's amount as typed (spec: digits only, shown with thousands separators, the
 * separators stripped before sending). The form keeps the bare digits; this module turns what
 * the person typed into digits and back into grouped text, and keeps the caret beside the digit
 * it followed, so typing in the middle of "1,000,000" does not throw the caret to the end.
 */
import { formatMlx, MLX_TOTAL_SUPPLY } from '@quern/core/wallet';
import type { Language } from '../i18n/languages.js';

/** Digits in the total supply (16): no valid amount is longer, so more are not accepted. */
export const AMOUNT_DIGITS_MAX = MLX_TOTAL_SUPPLY.toString(10).length;

const isDigit = (char: string): boolean => char >= '0' && char <= '9';

export interface AmountTyped {
  /** The amount's digits without separators or leading zeros ('' when none; '0' for zero). */
  digits: string;
  /** How many of `digits` stand before the caret. */
  digitsBeforeCaret: number;
}

/** Reads the input's text: anything but a digit is dropped, as are leading zeros. */
export function readAmountInput(text: string, caret: number | null = text.length): AmountTyped {
  const all = [...text].filter(isDigit).join('');
  const beforeCaret = [...text.slice(0, caret ?? text.length)].filter(isDigit).length;
  const withoutZeros = all.replace(/^0+(?=\d)/, '');
  const dropped = all.length - withoutZeros.length;
  const digits = withoutZeros.slice(0, AMOUNT_DIGITS_MAX);
  return { digits, digitsBeforeCaret: Math.min(Math.max(beforeCaret - dropped, 0), digits.length) };
}

/** "1234567" -> "1,234,567" (en) or "1.234.567" (es); '' stays ''. */
export function formatAmountDigits(digits: string, language: Language): string {
  return digits === '' ? '' : formatMlx(BigInt(digits), language);
}

/** The caret position in `formatted` just after its `digitCount`-th digit. */
export function caretAfterDigits(formatted: string, digitCount: number): number {
  if (digitCount <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < formatted.length; index += 1) {
    if (isDigit(formatted.charAt(index))) seen += 1;
    if (seen === digitCount) return index + 1;
  }
  return formatted.length;
}

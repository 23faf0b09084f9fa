/**
 * The send form's amount as typed (spec: digits only, shown with thousands separators, the
 * separators stripped before sending). What was typed is never dropped or reinterpreted: text
 * that is not a whole number, written as bare digits or grouped in thousands the way the page's
 * language writes numbers (formatMlx: "12,500" in English, "12.500" in Spanish), is refused and
 * stays on screen as typed. "12.5" or "12,5" is a fraction to whoever typed it, and "1x" a slip,
 * so neither may quietly become 125 or 1. A valid amount is shown grouped, the same number.
 */
import { formatMlx, MLX_AMOUNT_TEXT_LENGTH_MAX, MLX_TOTAL_SUPPLY } from '@quern/core/wallet';
import { groupSeparator, parseWholeMlx } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';

/** The thousands separator formatMlx writes for each language (what the field accepts). */
export const AMOUNT_GROUP_SEPARATOR: Record<Language, string> = { en: groupSeparator('en'), es: groupSeparator('es') };

/** Why the text is not an amount; 'empty' is left to the form's "all fields are required". */
export type AmountTextError = 'empty' | 'notWhole' | 'zero' | 'tooLarge';
export type AmountText = { ok: true; digits: string } | { ok: false; error: AmountTextError };

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Reads the amount field: bare digits ("12500") or digits grouped in threes after a first group
 * of one to three, by the language's separator only ("12,500" en, "12.500" es). The digits come
 * back without separators or leading zeros, as the server receives them.
 */
export function parseAmountText(text: string, language: Language): AmountText {
  if (text.trim().length > MLX_AMOUNT_TEXT_LENGTH_MAX) return { ok: false, error: 'notWhole' };
  // The page's one reader of typed amounts (i18n/format.ts), the same rules as every amount field.
  const read = parseWholeMlx(text, language);
  if (!read.ok) return read;
  const amount = read.amount;
  if (amount === 0n) return { ok: false, error: 'zero' };
  if (amount > MLX_TOTAL_SUPPLY) return { ok: false, error: 'tooLarge' };
  return { ok: true, digits: amount.toString(10) };
}

const separatorCount = (text: string, separator: string) => text.split(separator).length - 1;

/**
 * The text the field shows after an edit. `previous` is what it showed, `typed` what the browser
 * holds now. A valid amount is shown grouped; anything else exactly as typed. One leniency: when
 * the field showed a grouped amount and the edit only added or removed digits (or removed a
 * separator), the separators are the page's own, not the person's, so the digits are regrouped:
 * a 0 typed after "1,250" gives "12,500", and deleting a digit of "1,000" gives "100".
 */
export function editAmountText(previous: string, typed: string, language: Language): { text: string; digits: string | null } {
  const separator = AMOUNT_GROUP_SEPARATOR[language];
  const wasGrouped = previous.includes(separator) && parseAmountText(previous, language).ok;
  const onlyOurSeparators =
    wasGrouped &&
    new RegExp(`^[0-9${escapeForPattern(separator)}]+$`).test(typed) &&
    separatorCount(typed, separator) <= separatorCount(previous, separator);
  const read = parseAmountText(onlyOurSeparators ? typed.split(separator).join('') : typed, language);
  if (!read.ok) return { text: typed, digits: null };
  return { text: formatMlx(BigInt(read.digits), language), digits: read.digits };
}

/** How many digits of `text` stand before `caret`. */
export const digitsBefore = (text: string, caret: number | null): number =>
  [...text.slice(0, caret ?? text.length)].filter((char) => char >= '0' && char <= '9').length;

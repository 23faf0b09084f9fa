/**
 * The web app's one formatting module (issue 25): every amount, price and date on screen is
 * written here, in the page's language, by the same Intl rules the server's messages and e-mails
 * use (`@quern/core/i18n/format`). Amount inputs read text by the same rules, so what the page
 * shows is exactly what its fields accept: whole MLX, bare digits or grouped in thousands by the
 * language's own separator.
 */
import {
  formatDate as coreFormatDate,
  formatDateTime as coreFormatDateTime,
  formatInteger,
  formatLongDate as coreFormatLongDate,
  formatMessageParam,
  formatUsdCentsText,
  groupSeparator,
  type DateTimeOptions,
} from '@quern/core/i18n/format';
import i18next from 'i18next';
import { defaultLanguage, isLanguage, type Language } from './languages.js';

export { decimalSeparator, groupSeparator, isAmountParam } from '@quern/core/i18n/format';

/** The language on screen (for code outside React's tree); English until one is resolved. */
export function pageLanguage(): Language {
  const language = i18next.resolvedLanguage ?? i18next.language;
  return isLanguage(language) ? language : defaultLanguage;
}

/** Wire digits of a whole amount: no sign, no separators, no leading zeros. */
const WIRE_DIGITS = /^(0|[1-9][0-9]{0,39})$/;

/**
 * An MLX amount (bigint, or wire digits from the server) grouped in the language: "12,500" (en),
 * "12.500" (es), "1234" (es, four digits stay together). Text that is not wire digits comes back
 * unchanged, so a bad value from the server is visible, not hidden.
 */
export function formatMlx(amount: bigint | string, language: Language): string {
  if (typeof amount === 'bigint') return formatInteger(amount, language);
  return WIRE_DIGITS.test(amount) ? formatInteger(BigInt(amount), language) : amount;
}

/** USD cents with two decimals, grouped: 123456n -> "1,234.56" (en), "1234,56" (es). */
export function formatUsdCents(cents: bigint, language: Language): string {
  return formatUsdCentsText(cents, language);
}

/** "27/11/2026". `timeZone` is for tests and for calendar days (a date input's value is a UTC day). */
export const formatDate = (iso: string, language: Language, extra: DateTimeOptions = {}): string => coreFormatDate(iso, language, extra);

/** "27/11/2026, 1:32 pm" (en), "27/11/2026, 13:32" (es), in the viewer's time zone. */
export const formatDateTime = (iso: string, language: Language, extra: DateTimeOptions = {}): string =>
  coreFormatDateTime(iso, language, extra);

/** A date in a sentence: "27 November 2026", "27 de noviembre de 2026". */
export const formatLongDate = (iso: string, language: Language, extra: DateTimeOptions = {}): string =>
  coreFormatLongDate(iso, language, extra);

/**
 * A calendar day as a date input holds it ("2026-01-31") in the language's date format
 * ("31/01/2026"); null when the text is not a real day (the field is empty or half typed).
 */
export function formatCalendarDay(day: string, language: Language): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const date = new Date(`${day}T00:00:00Z`);
  // Date rolls 2026-02-30 over to March; a day that does not survive the round trip is not real.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) return null;
  return coreFormatDate(date, language, { timeZone: 'UTC' });
}

/** The longest amount text read: 16 digits of the supply with 5 separators fit with room to spare. */
export const AMOUNT_TEXT_LENGTH_MAX = 40;

export type WholeMlxText = { ok: true; amount: bigint } | { ok: false; error: 'empty' | 'notWhole' };

const escapeForPattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Reads a whole MLX amount typed in the page's language: bare digits ("12500"), or digits in
 * threes after a first group of one to three, by the language's separator only ("12,500" en,
 * "12.500" es; "1.234" is accepted in Spanish too, though the page writes "1234"). Anything else
 * ("12.5" in English, "12,5" in Spanish, "1x", "1,00", a sign, another language's separator) is
 * refused, never reinterpreted. Range checks (zero, the supply) are the caller's.
 */
export function parseWholeMlx(text: string, language: Language): WholeMlxText {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'empty' };
  if (trimmed.length > AMOUNT_TEXT_LENGTH_MAX) return { ok: false, error: 'notWhole' };
  const separator = groupSeparator(language);
  const grouped = new RegExp(`^[0-9]{1,3}(?:${escapeForPattern(separator)}[0-9]{3})+$`);
  if (!/^[0-9]+$/.test(trimmed) && !grouped.test(trimmed)) return { ok: false, error: 'notWhole' };
  return { ok: true, amount: BigInt(trimmed.split(separator).join('')) };
}

/**
 * i18next's interpolation hook (i18n.ts sets `alwaysFormat`): every {{param}} of every string
 * passes here, so an amount a server error carries as wire digits ("requiredMlx": "300000") reads
 * "300,000" / "300.000", and an ISO instant reads as a date, in the page's language. Text already
 * formatted passes through unchanged.
 */
export function formatInterpolation(value: unknown, lng: string | undefined, name: unknown): unknown {
  if (typeof name !== 'string') return value;
  return formatMessageParam(name, value, isLanguage(lng) ? lng : defaultLanguage);
}

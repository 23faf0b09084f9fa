/**
 * The one way Quern writes numbers and dates, per language, for the web app and for the server's
 * messages and e-mails alike (issue 25: one date format and one number format per language).
 * Everything goes through `Intl` with the language's own conventions: English groups with
 * commas ("12,500"); Spanish with dots, and, as the RAE and CLDR say, not a four-digit number
 * ("1234", "12.345"). Amounts are bigints or wire digits, formatted by Intl's bigint support, so
 * no amount ever passes through a float. This file imports no strings, so the web can load it
 * without the server's message catalogue.
 */

export type FormatLanguage = 'en' | 'es';

/**
 * The locale each language formats with. English dates are British (the spec: en-GB, 12-hour,
 * "27/11/2026, 1:32 pm"); Spanish ones are written the Spanish way ("27/11/2026, 13:32").
 */
export const FORMAT_LOCALE: Record<FormatLanguage, string> = { en: 'en-GB', es: 'es-ES' };

const numberFormats = new Map<FormatLanguage, Intl.NumberFormat>();
const integerFormat = (language: FormatLanguage): Intl.NumberFormat => {
  let format = numberFormats.get(language);
  if (format === undefined) {
    format = new Intl.NumberFormat(FORMAT_LOCALE[language], { maximumFractionDigits: 0 });
    numberFormats.set(language, format);
  }
  return format;
};

/** A whole number in the language's grouping: 1234567n -> "1,234,567" (en), "1.234.567" (es). */
export function formatInteger(value: bigint, language: FormatLanguage): string {
  // Intl writes a bigint exactly, whatever its size; '-' keeps negatives plain ASCII.
  return integerFormat(language).format(value).replace('\u2212', '-');
}

/** The language's decimal mark, read from Intl itself (en '.', es ','). */
export function decimalSeparator(language: FormatLanguage): string {
  // 1.5 is a constant probe, never an amount: Intl names its decimal part, and only that is kept.
  return new Intl.NumberFormat(FORMAT_LOCALE[language]).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/** The language's thousands separator, read from Intl (en ',', es '.'). */
export function groupSeparator(language: FormatLanguage): string {
  return (
    integerFormat(language)
      .formatToParts(10_000_000n)
      .find((part) => part.type === 'group')?.value ?? ','
  );
}

/**
 * A whole number with `fractionDigits` decimals given as a scaled bigint, exactly:
 * (123456n, 2) -> "1,234.56" (en), "1234,56" (es). Only the whole part is grouped.
 */
export function formatScaled(scaled: bigint, fractionDigits: number, language: FormatLanguage): string {
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const unit = 10n ** BigInt(fractionDigits);
  const whole = formatInteger(magnitude / unit, language);
  const fraction =
    fractionDigits > 0 ? `${decimalSeparator(language)}${(magnitude % unit).toString(10).padStart(fractionDigits, '0')}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** USD cents with two decimals: 123456n -> "1,234.56" (en), "1234,56" (es). The caller adds "USD". */
export const formatUsdCentsText = (cents: bigint, language: FormatLanguage): string => formatScaled(cents, 2, language);

export type DateTimeOptions = {
  /** An IANA zone; the server passes 'UTC' (and then says so), the browser shows local time. */
  timeZone?: string;
  /** Name the zone after the time ("… UTC"), for a reader who may live in another one. */
  showZone?: boolean;
};

const dateParts: Intl.DateTimeFormatOptions = { day: '2-digit', month: '2-digit', year: 'numeric' };
const timeParts = (language: FormatLanguage): Intl.DateTimeFormatOptions => ({
  hour: 'numeric',
  minute: '2-digit',
  // hourCycle, not hour12: en-GB with hour12 counts 0-11 and writes midnight as '0:15 am'.
  hourCycle: language === 'en' ? 'h12' : 'h23',
});

/**
 * The DateTimeFormat of a locale and options, made once and kept: each one made holds native ICU
 * memory until a collection, so one per call (a statement's 100,000 rows) grows the process by
 * hundreds of megabytes. Few combinations exist (two languages, a handful of option sets and zones).
 */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
const DATE_TIME_FORMATS_MAX = 64;
function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateTimeFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    if (dateTimeFormats.size < DATE_TIME_FORMATS_MAX) dateTimeFormats.set(key, format);
  }
  return format;
}

const readDate = (value: string | Date): Date | null => {
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? null : date;
};

const withZone = (options: Intl.DateTimeFormatOptions, extra: DateTimeOptions): Intl.DateTimeFormatOptions =>
  extra.timeZone === undefined ? options : { ...options, timeZone: extra.timeZone };

/** "27/11/2026" in both languages; unreadable input comes back as it was. */
export function formatDate(value: string | Date, language: FormatLanguage, extra: DateTimeOptions = {}): string {
  const date = readDate(value);
  if (date === null) return String(value);
  return dateTimeFormat(FORMAT_LOCALE[language], withZone(dateParts, extra)).format(date);
}

/** "27/11/2026, 1:32 pm" (en), "27/11/2026, 13:32" (es); with showZone, "… UTC". */
export function formatDateTime(value: string | Date, language: FormatLanguage, extra: DateTimeOptions = {}): string {
  const date = readDate(value);
  if (date === null) return String(value);
  const options = withZone({ ...dateParts, ...timeParts(language) }, extra);
  const text = dateTimeFormat(FORMAT_LOCALE[language], options).format(date);
  return extra.showZone === true && extra.timeZone !== undefined ? `${text} ${extra.timeZone}` : text;
}

/** A date inside a sentence: "27 November 2026" (en), "27 de noviembre de 2026" (es). */
export function formatLongDate(value: string | Date, language: FormatLanguage, extra: DateTimeOptions = {}): string {
  const date = readDate(value);
  if (date === null) return String(value);
  return dateTimeFormat(FORMAT_LOCALE[language], withZone({ dateStyle: 'long' }, extra)).format(date);
}

/** An instant inside a sentence (e-mails): "1 March 2026 at 10:05 am", "1 de marzo de 2026 a las 10:05". */
export function formatLongDateTime(value: string | Date, language: FormatLanguage, extra: DateTimeOptions = {}): string {
  const date = readDate(value);
  if (date === null) return String(value);
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'long', timeStyle: 'short', hourCycle: timeParts(language).hourCycle };
  return dateTimeFormat(FORMAT_LOCALE[language], withZone(options, extra)).format(date);
}

/**
 * The message parameters that are MLX amounts: any name ending in "Mlx", and the plain names the
 * catalogue uses for amounts. Only these are grouped: a year, a code or a count of minutes is not.
 */
const AMOUNT_PARAM_NAMES = new Set(['amount', 'price', 'mlx', 'fee', 'debit', 'agreed', 'previous', 'left', 'example', 'total']);
/** The parameters that are instants (ISO 8601 on the wire). */
const DATE_TIME_PARAM_NAMES = new Set(['holdUntil', 'until', 'at']);
const DATE_PARAM_NAMES = new Set(['date']);

export const isAmountParam = (name: string): boolean => name.endsWith('Mlx') || AMOUNT_PARAM_NAMES.has(name);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** At most 40 digits are read as an amount; a longer string is not one and stays as it is. */
const AMOUNT_DIGITS = /^-?\d{1,40}$/;

/**
 * One message parameter as the reader sees it: an amount (wire digits, a bigint or a safe
 * integer) grouped in the language; an ISO instant written as a date. Anything else, including
 * text already formatted, passes through unchanged, so formatting twice changes nothing.
 */
export function formatMessageParam(name: string, value: unknown, language: FormatLanguage, extra: DateTimeOptions = {}): unknown {
  if (isAmountParam(name)) {
    if (typeof value === 'bigint') return formatInteger(value, language);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return formatInteger(BigInt(value), language);
    if (typeof value === 'string' && AMOUNT_DIGITS.test(value)) return formatInteger(BigInt(value), language);
    return value;
  }
  if (typeof value === 'string' && ISO_INSTANT.test(value)) {
    if (DATE_TIME_PARAM_NAMES.has(name)) return formatDateTime(value, language, extra);
    if (DATE_PARAM_NAMES.has(name)) return formatLongDate(value, language, extra);
  }
  return value;
}

/** Every parameter of a message through formatMessageParam. */
export function formatMessageParams<T extends Record<string, unknown>>(
  params: T,
  language: FormatLanguage,
  extra: DateTimeOptions = {},
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, formatMessageParam(name, value, language, extra)]));
}

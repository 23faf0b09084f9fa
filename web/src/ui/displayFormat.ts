/**
 * How every feature writes an amount, a date or a server message's parameters from server data;
 * general, so it sits in ui/ beside the components that show it. Amounts arrive as decimal strings
 * (exact bigints on the wire) and are formatted with core's money helpers in the language on
 * screen; nothing here goes through a float.
 */
import { formatScaled } from '@quern/core/i18n/format';
import { parseUsdAmount } from '@quern/core/purchases';
import { formatMlx, formatUsdCents, mlxFromWire, mlxToUsdCents, parseExchangeRate } from '@quern/core/wallet';
import { formatDate, formatDateTime, pageLanguage } from '../i18n/format.js';
import type { Language } from '../i18n/languages.js';

/** An MLX wire amount with thousands separators, or null when the server sent something else. */
export function formatMlxWire(wire: string, language: Language): string | null {
  try {
    return formatMlx(mlxFromWire(wire), language);
  } catch (error) {
    console.error('Unreadable MLX amount from the server', wire, error);
    return null;
  }
}

/**
 * The USD value of an MLX amount at the current rate, with two decimals, or null when there is
 * no usable rate (the dashboard then shows MLX alone).
 */
export function formatUsdEquivalent(wire: string, rateText: string | null | undefined, language: Language): string | null {
  if (!rateText) return null;
  const rate = parseExchangeRate(rateText);
  if (!rate.ok) return null;
  try {
    return formatUsdCents(mlxToUsdCents(mlxFromWire(wire), rate.rate), language);
  } catch {
    return null;
  }
}

/**
 * A USD amount the server sends as decimal text ("1234.50", an invoice's or a payment link's
 * price) in the language's format, read into whole cents first: "1,234.50" (en), "1234,50" (es),
 * as the Buy page writes USD. The caller adds "USD". Null when the text is not a USD amount.
 */
export function formatUsdWire(text: string, language: Language): string | null {
  const parsed = parseUsdAmount(text);
  return parsed.ok ? formatUsdCents(parsed.usdCents, language) : null;
}

/**
 * A rate the server sends as decimal text ("0.000012" USD per MLX) in the language's number
 * format, every decimal kept: "0.000012" (en), "0,000012" (es). As sent when it is not a rate.
 */
export function formatRateWire(text: string, language: Language): string {
  const parsed = parseExchangeRate(text);
  if (!parsed.ok) return text;
  const { numerator, denominator } = parsed.rate;
  return formatScaled(numerator, denominator.toString(10).length - 1, language);
}

/** A payment link's or an invoice's amount text in its currency's format (MLX whole, USD cents); as sent when unreadable. */
export function formatAmountWire(text: string, currency: 'MLX' | 'USD', language: Language): string {
  return (currency === 'USD' ? formatUsdWire(text, language) : formatMlxWire(text, language)) ?? text;
}

export type DateStyle = 'long' | 'short';

/**
 * A date in the page's language (i18n/format.ts): '22/11/2026, 3:04 pm' (en, the spec's en-GB
 * 12-hour) or '22/11/2026, 15:04' (es) on desktop and in the popup, '22/11/2026' on phones.
 * `timeZone` is for tests; the app shows the viewer's local time. `language` defaults to the
 * page's, so every caller follows the language menu.
 */
export function formatStyledDate(iso: string, style: DateStyle, timeZone?: string, language: Language = pageLanguage()): string {
  const extra = timeZone === undefined ? {} : { timeZone };
  return style === 'long' ? formatDateTime(iso, language, extra) : formatDate(iso, language, extra);
}

/**
 * The server's message parameters as the page shows them: MLX amounts ("requiredMlx") arrive as
 * wire digits and are grouped like every other amount on screen.
 */
export function displayParams(params: Record<string, string | number>, language: Language): Record<string, string | number> {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => {
      if (!name.endsWith('Mlx') || typeof value !== 'string' || !/^\d+$/.test(value)) return [name, value];
      return [name, formatMlxWire(value, language) ?? value];
    }),
  );
}

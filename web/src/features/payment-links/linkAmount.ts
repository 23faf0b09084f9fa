/**
 * A payment link's amount as typed (by the merchant creating it, or the visitor paying an open
 * one) into the text the server reads (ADR 084: whole MLX digits, or USD with a dot and at most
 * two decimals). MLX may be typed grouped the way the page writes it ("5,000" in English, "5.000"
 * in Spanish, ADR 058) and goes as bare digits; anything else goes as typed, for the server to
 * refuse with its own message.
 */
import { parseWholeMlx } from '../../i18n/format.js';
import type { Language } from '../../i18n/languages.js';

export function linkAmountForServer(typed: string, currency: 'MLX' | 'USD', language: Language): string {
  const trimmed = typed.trim();
  if (currency !== 'MLX') return trimmed;
  const read = parseWholeMlx(trimmed, language);
  return read.ok ? read.amount.toString() : trimmed;
}

/**
 * Amounts of payment links as text (ADR 084): whole MLX, or USD with at most two decimals, read
 * into whole units of their currency (MLX, USD cents) and written back. Pure, shared by the
 * contracts (the merchant's input) and the decider (the visitor's amount).
 */
import { parseUsdAmount, usdCentsToText } from '../purchases/pricing.js';
import { MLX_TOTAL_SUPPLY } from '../wallet/money.js';
import type { PaymentLinkCurrency } from './events.js';

/** The largest USD amount a link asks or takes: 1,000,000 USD in cents, as for an invoice. */
export const PAYMENT_LINK_USD_CENTS_MAX = 100_000_000n;

/** Text in the currency's whole units (MLX, USD cents), or the message key of why it is not an amount. */
export function readLinkAmount(text: string, currency: PaymentLinkCurrency): { units: bigint } | { messageKey: string } {
  if (currency === 'USD') {
    const parsed = parseUsdAmount(text);
    if (!parsed.ok || parsed.usdCents <= 0n) return { messageKey: 'errors:invalidUsdAmount' };
    if (parsed.usdCents > PAYMENT_LINK_USD_CENTS_MAX) return { messageKey: 'errors:amountTooLarge' };
    return { units: parsed.usdCents };
  }
  const trimmed = text.trim();
  if (!/^[1-9][0-9]{0,19}$/.test(trimmed)) return { messageKey: 'errors:invalidAmount' };
  const units = BigInt(trimmed);
  return units <= MLX_TOTAL_SUPPLY ? { units } : { messageKey: 'errors:amountTooLarge' };
}

/** Whole units back to the text people and the API read: "25000" MLX, "12.50" USD. */
export const linkAmountText = (units: string | bigint, currency: PaymentLinkCurrency): string =>
  currency === 'USD' ? usdCentsToText(BigInt(units)) : BigInt(units).toString();

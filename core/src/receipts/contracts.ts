/**
 * A shopper's receipt (issue 28): one per purchase of MLX, checkout payment, invoice paid from a
 * balance and subscription charge, named by the transaction it is for (ADR 091). The same schema
 * serves the tRPC procedure behind the printable page, the PDF and the tests. Amounts are decimal
 * strings (whole MLX; USD as dollars with two decimals); a rate is USD per MLX as recorded.
 */
import { z } from 'zod';
import type { Language } from '../i18n/index.js';
import { historyKindOf } from '../history/kind.js';

export const receiptKinds = ['purchase', 'checkout_payment', 'invoice_payment', 'subscription_charge'] as const;
export type ReceiptKind = (typeof receiptKinds)[number];

/** The receipt kind of a history row, or undefined when the row has no receipt (a send, a refund, a payout). */
export function receiptKindOf(row: { transaction_type: string; purpose?: { kind: string } | undefined }): ReceiptKind | undefined {
  const kind = historyKindOf(row);
  return (receiptKinds as readonly string[]).includes(kind) ? (kind as ReceiptKind) : undefined;
}

/** What a receipt id looks like: a transaction hash of the history (no glob or JSON specials). */
export const RECEIPT_ID_PATTERN = /^[A-Za-z0-9_:-]{1,128}$/;

/** The receipt page's address, for links in the web app and in e-mails. */
export const receiptPath = (receiptId: string): string => `/receipts/${encodeURIComponent(receiptId)}`;

const receiptId = z.string({ error: 'errors:receiptNotFound' }).regex(RECEIPT_ID_PATTERN, { error: 'errors:receiptNotFound' });

export const receiptByIdInput = z.strictObject({ id: receiptId });
export type ReceiptByIdInput = z.infer<typeof receiptByIdInput>;

/** The PDF route's query: the language it is written in (the page's by default). */
export const receiptPdfQuery = z.strictObject({
  // The languages written out (a type-only import): the web app's account page imports this module
  // and should not pull in the server's message resources with the i18n index.
  lang: z.enum(['en', 'es'] as const satisfies readonly Language[], { error: 'errors:receiptLanguage' }).optional(),
});

const mlx = z.string().regex(/^[0-9]{1,20}$/);
const dollars = z.string().regex(/^[0-9]{1,20}\.[0-9]{2}$/);

export const receiptOutput = z.object({
  /** The transaction's id in the history (its hash): the receipt's id too. */
  id: z.string(),
  kind: z.enum(receiptKinds),
  /** When the transaction settled (ISO 8601, UTC). */
  date: z.iso.datetime(),
  /** The wallet owner's username, who paid (or, for a purchase, bought). */
  payer: z.string(),
  /** Who was paid: the shop, invoicing merchant or plan's provider by username; the company for a purchase. */
  merchant: z.string(),
  /** How the merchant names the payment: the shop's order reference (else its first item, else the order), the invoice's reference (else its id), the plan and month, the PayPal order. */
  reference: z.string(),
  /** The order, invoice or subscription id the payment belongs to. */
  order_id: z.string(),
  /** A subscription charge only: the month of the subscription it paid (1 for the first). */
  period: z.number().int().min(1).nullable(),
  /** Whole MLX moved by the payment, without the fee. */
  amount_mlx: mlx,
  fee_mlx: mlx,
  /** What left the wallet (amount + fee); for a purchase, what arrived. */
  total_mlx: mlx,
  /** USD per MLX: the purchase's or checkout's own rate, else the rate in force when the transaction was recorded; null when none was set. */
  usd_per_mlx: z.string().nullable(),
  /** amount × rate, rounded half up to cents; null without a rate. */
  usd_value: dollars.nullable(),
  /** A purchase only: the USD paid at PayPal. */
  usd_paid: dollars.nullable(),
  /** A purchase only: PayPal's capture id, the transaction PayPal shows its buyer. */
  provider_transaction_id: z.string().nullable(),
});
export type Receipt = z.infer<typeof receiptOutput>;

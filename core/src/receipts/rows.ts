/**
 * What a receipt says, row by row, in the reader's language (ADR 091): one list for the printable
 * page and the PDF, so the two cannot disagree. The texts come from the `receipts` namespace
 * through `t`; amounts and dates use the app's one format per language (i18n/format.ts), dates in
 * UTC since a receipt may be read anywhere.
 */
import { decimalSeparator, formatInteger, formatLongDateTime, formatUsdCentsText } from '../i18n/format.js';
import type { Language } from '../i18n/index.js';
import type { Receipt } from './contracts.js';

export interface ReceiptRow {
  /** The row's key in the `receipts` namespace (its label), stable for tests and styling. */
  key: string;
  label: string;
  value: string;
  /** An id, shown in a fixed-width font and free to break anywhere. */
  isId?: boolean;
}

export type ReceiptText = (key: string, params?: Record<string, string>) => string;

const centsOf = (dollars: string): bigint => BigInt(dollars.replace('.', ''));

export function receiptRows(receipt: Receipt, language: Language, t: ReceiptText): ReceiptRow[] {
  const purchase = receipt.kind === 'purchase';
  const row = (key: string, value: string, isId = false): ReceiptRow => ({ key, label: t(key), value, ...(isId ? { isId } : {}) });
  const mlx = (amount: string) => t('amountValue', { amount: formatInteger(BigInt(amount), language) });
  const usd = (dollars: string) => t('usdAmount', { usd: formatUsdCentsText(centsOf(dollars), language) });
  const orderKey = {
    purchase: 'orderId',
    checkout_payment: 'orderId',
    invoice_payment: 'invoiceId',
    subscription_charge: 'subscriptionId',
  }[receipt.kind];
  const rate =
    receipt.usd_per_mlx === null ? t('noRate') : t('rateValue', { rate: receipt.usd_per_mlx.replace('.', decimalSeparator(language)) });
  return [
    row('date', t('dateValue', { date: formatLongDateTime(receipt.date, language, { timeZone: 'UTC' }) })),
    row(purchase ? 'buyer' : 'payer', receipt.payer),
    row(purchase ? 'seller' : 'merchant', receipt.merchant),
    row('reference', receipt.reference),
    row(orderKey, receipt.order_id, true),
    ...(receipt.period === null ? [] : [row('period', t('periodValue', { period: String(receipt.period) }))]),
    row(purchase ? 'received' : 'amount', mlx(receipt.amount_mlx)),
    ...(purchase ? [] : [row('fee', mlx(receipt.fee_mlx)), row('total', mlx(receipt.total_mlx))]),
    ...(receipt.usd_paid === null ? [] : [row('usdPaid', usd(receipt.usd_paid))]),
    row('rate', rate),
    ...(receipt.usd_value === null ? [] : [row('usdValue', usd(receipt.usd_value))]),
    ...(receipt.provider_transaction_id === null ? [] : [row('providerTransaction', receipt.provider_transaction_id, true)]),
    row('transactionId', receipt.id, true),
  ];
}

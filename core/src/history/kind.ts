/**
 * What a history row was, in one word the dashboard can say and filter by (issue 25): a plain
 * transfer is 'sent' or 'received' by its direction; a row with a purpose (purpose.ts) is that
 * purpose, and a checkout payment is 'checkout_payment' for the shopper who paid and
 * 'checkout_received' for the shop that was paid. Pure: the web app labels rows with it and the
 * api filters the history with it, so the words on screen and the filter cannot disagree.
 */
import { type TransactionPurposeKind, transactionPurposeKinds } from './purpose.js';

export type HistoryKind = 'sent' | 'received' | 'checkout_payment' | 'checkout_received' | Exclude<TransactionPurposeKind, 'checkout'>;

/**
 * In the list's order (ADR 078), with the checkout's purpose split by side: the words the history
 * filter offers.
 */
export const historyKinds: readonly HistoryKind[] = [
  'sent',
  'received',
  ...transactionPurposeKinds.flatMap((kind): HistoryKind[] => (kind === 'checkout' ? ['checkout_payment', 'checkout_received'] : [kind])),
];
export const isHistoryKind = (kind: string): kind is HistoryKind => (historyKinds as readonly string[]).includes(kind);

/**
 * The kind of a row. A purpose this code does not know (a newer server's) falls back to the
 * direction, as the rows' labels do.
 */
export function historyKindOf(row: { transaction_type: string; purpose?: { kind: string } | undefined }): HistoryKind {
  const incoming = row.transaction_type === 'credit';
  const kind = row.purpose?.kind;
  if (kind === 'checkout') return incoming ? 'checkout_received' : 'checkout_payment';
  if (kind !== undefined && kind !== 'checkout' && isHistoryKind(kind)) return kind;
  return incoming ? 'received' : 'sent';
}

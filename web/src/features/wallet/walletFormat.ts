/**
 * How the dashboard writes a transaction: its direction, signed amount, date and other party.
 * The amount and date formatters every feature shares are ui/displayFormat.ts.
 */
import { shortenIdentifier } from '@quern/core/wallet';
import type { Language } from '../../i18n/languages.js';
import { formatMlxWire } from '../../ui/displayFormat.js';
import {
  isTransactionPurposeKind,
  type CompletedTransaction,
  type PendingTransaction,
  type TransactionPurpose,
  type TransactionPurposeKind,
} from '@quern/core/history';

export type WalletTransaction = CompletedTransaction | PendingTransaction;
export type TransactionDirection = 'credit' | 'debit';

/** The spec: 'credit' is incoming; any other type is outgoing. */
export const directionOf = (transaction: Pick<WalletTransaction, 'transaction_type'>): TransactionDirection =>
  transaction.transaction_type === 'credit' ? 'credit' : 'debit';

/** U+2212 MINUS SIGN: the same width as '+', and read as "minus" by screen readers. */
export const MINUS_SIGN = '\u2212';

/** '+1,000' for a credit, '−1,000' for a debit; null when the amount is unreadable. */
export function signedAmount(transaction: Pick<WalletTransaction, 'transaction_type' | 'amount'>, language: Language): string | null {
  const amount = formatMlxWire(transaction.amount, language);
  if (amount === null) return null;
  return `${directionOf(transaction) === 'credit' ? '+' : MINUS_SIGN}${amount}`;
}

/** The popup's date: when the transaction completed, else when it was created (pending). */
export function transactionDateOf(transaction: WalletTransaction): string {
  const completedAt = 'transaction_date' in transaction ? transaction.transaction_date : undefined;
  const createdAt = 'create_date' in transaction ? transaction.create_date : undefined;
  return completedAt || createdAt || '';
}

export interface Party {
  /**
   * What the From / To column shows: what a purchase, refund or chargeback was ('Bought with
   * PayPal'), else the username when known, else the shortened address.
   */
  label: string;
  /** The full address, for the title attribute. */
  address: string;
}

/**
 * A purpose's text in the language on screen; the list passes its translation function. With
 * `params`, the row's own wording (`purposeRows`): "Refund of order …", "Payout to …" (the
 * `context` picks the direction).
 */
export type PurposeLabel = (
  kind: TransactionPurposeKind,
  params?: { order?: string; party?: string; context?: 'credit' | 'debit' },
) => string;

/** The purpose kind this page can name, or undefined (none, or one a newer server added). */
export function purposeKindOf(transaction: WalletTransaction): TransactionPurposeKind | undefined {
  const kind: string | undefined = transaction.purpose?.kind;
  return kind !== undefined && isTransactionPurposeKind(kind) ? kind : undefined;
}

/**
 * The other side of a transaction: the sender of a credit, the recipient of a debit. For a
 * purchase that side is the reserve wallet, whose address means nothing to the buyer, so the
 * row says what the transfer was instead; a checkout payment's other side is a person (the shop or
 * the shopper), named like any send. An unknown purpose falls back to the address.
 */
export function otherPartyOf(transaction: WalletTransaction, purposeLabel: PurposeLabel): Party {
  const incoming = directionOf(transaction) === 'credit';
  const address = incoming ? transaction.from_address : transaction.to_address;
  const purpose = purposeKindOf(transaction);
  const username = incoming ? transaction.from_user?.username : transaction.to_user?.username;
  // Read as core's full purpose type: the history's wire schema may still lag behind it.
  const ids = transaction.purpose as TransactionPurpose | undefined;
  // A merchant's refund names its order on both sides (ADR 033).
  if (ids?.kind === 'checkout_refund')
    return { label: purposeLabel('checkout_refund', { order: shortenIdentifier(ids.order_id) }), address };
  // A payout, a subscription's charge (ADR 037) or an invoice paid from a balance names who paid or was paid.
  if (ids?.kind === 'payout' || ids?.kind === 'subscription_charge' || ids?.kind === 'invoice_payment')
    return {
      label: purposeLabel(ids.kind, { party: username || shortenIdentifier(address), context: incoming ? 'credit' : 'debit' }),
      address,
    };
  if (purpose !== undefined && !(purpose === 'checkout' && username)) return { label: purposeLabel(purpose), address };
  return { label: username || shortenIdentifier(address), address };
}

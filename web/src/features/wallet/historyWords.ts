/**
 * What a history row says happened, in words (issue 25): 'Sent to alice', 'Payment to bob_shop ·
 * ORD-1042', 'Refund from bob_shop · ORD-1042', instead of a bare DEBIT/CREDIT and an address. The
 * kind comes from core's historyKindOf, so the words and the history filter agree. PayPal rows,
 * payouts and subscription charges keep their existing wording (otherPartyOf).
 */
import { otherPartyOf, type PurposeLabel, type WalletTransaction } from './walletFormat.js';
import { historyKindOf, type HistoryKind, type TransactionPurpose } from '@quern/core/history';

/** The translation function the words need (i18next's `t` in the wallet namespace). */
export type WordsT = (key: string, params?: Record<string, string>) => string;

/**
 * What names a checkout payment or refund after the shop: its order reference, else the cart's
 * first item (issue 25: 'Payment to <shop> · <reference or first item>'), when the server joined one in.
 */
export function merchantReferenceOf(transaction: WalletTransaction): string | undefined {
  const purpose = transaction.purpose as (TransactionPurpose & { merchant_reference?: string; first_item?: string }) | undefined;
  if (purpose?.kind !== 'checkout' && purpose?.kind !== 'checkout_refund') return undefined;
  return purpose.merchant_reference ?? purpose.first_item;
}

/** The kind's short name: the detail popup's Type, and the filter's choices. */
export const kindWords = (kind: HistoryKind, t: WordsT): string => t(`history.kinds.${kind}`);

const ROW_KEYS: Partial<Record<HistoryKind, string>> = {
  sent: 'history.rows.sent',
  received: 'history.rows.received',
  checkout_payment: 'history.rows.checkout_payment',
  checkout_received: 'history.rows.checkout_received',
};

/** The row's one line: what happened, with whom, and the shop's reference when there is one. */
export function describeTransaction(transaction: WalletTransaction, t: WordsT, purposeLabel: PurposeLabel): string {
  const kind = historyKindOf(transaction);
  const party = otherPartyOf(transaction, purposeLabel);
  const reference = merchantReferenceOf(transaction);
  let text: string;
  const rowKey = ROW_KEYS[kind];
  if (rowKey !== undefined) {
    // A plain send or a checkout names the person: the username, else the shortened address.
    const incoming = transaction.transaction_type === 'credit';
    const username = incoming ? transaction.from_user?.username : transaction.to_user?.username;
    const name = kind === 'checkout_payment' || kind === 'checkout_received' ? (username ?? party.label) : party.label;
    text = t(rowKey, { party: name });
  } else if (kind === 'checkout_refund' && reference !== undefined) {
    const incoming = transaction.transaction_type === 'credit';
    const username = incoming ? transaction.from_user?.username : transaction.to_user?.username;
    text = username ? t(`history.rows.checkout_refund_${incoming ? 'credit' : 'debit'}`, { party: username }) : kindWords(kind, t);
  } else {
    text = party.label;
  }
  return reference === undefined ? text : t('history.rows.withReference', { text, reference });
}

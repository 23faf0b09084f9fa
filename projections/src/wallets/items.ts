import type { TransactionPurpose } from '@quern/core/history';
/**
 * What the wallet read models store per transaction: the spec's fields (section 3, Transaction)
 * plus the wallet ids the queries need to resolve usernames, and for pending items the log
 * position they are ordered by. The queries drop the internal fields before answering.
 */

export interface StoredTransaction {
  transaction_hash: string;
  transaction_type: 'credit' | 'debit';
  from_address: string;
  to_address: string;
  amount: string;
  /** Debits only. */
  fee?: string;
  /** A purchase, refund or reversal (ADR 025), in its wire form; absent on sends, deposits and older rows. */
  purpose?: TransactionPurpose;
  /** Internal: the paying Quern wallet, when there is one. */
  from_wallet_id?: string;
  /** Internal: the receiving Quern wallet, when there is one. */
  to_wallet_id?: string;
}

export interface StoredCompletedTransaction extends StoredTransaction {
  /** The wallet's posted balance right after the transaction. */
  balance: string;
  transaction_date: string;
}

export interface StoredPendingTransaction extends StoredTransaction {
  create_date: string;
  /** Internal: the log position of the event that made it pending (decimal), for newest-first order. */
  position: string;
}

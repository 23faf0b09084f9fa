/**
 * The history's schemas (the spec's section 7 transactions and pending transactions, their
 * fields unchanged), shared by the tRPC procedures, the REST routes and the read model. Amounts
 * leave the server as decimal strings: a JSON number cannot hold every MLX amount exactly.
 */
import { z } from 'zod';
import { OPEN_RESERVATIONS_MAX } from '../wallet/decider.js';
import { mlxWire } from '../wallet/contracts.js';
import { checkHistoryRange, hasHistoryFilter, historyFilterInput, historyFilterQueryFields } from './filter.js';
import { transactionPurposeOutput } from './purpose.js';

/**
 * Completed transactions per dashboard page. The spec leaves the size open; 10 rows fit a laptop
 * screen above the pagination without scrolling, and the API answers with `limit` so a client
 * never assumes it.
 */
export const TRANSACTIONS_PAGE_SIZE = 10;
/** Highest page number accepted: 100 million transactions at 10 a page, far past any wallet. */
export const TRANSACTIONS_PAGE_MAX = 10_000_000;
/** The pending list shows at most this many items: every open reservation fits, plus deposits. */
export const PENDING_TRANSACTIONS_MAX = OPEN_RESERVATIONS_MAX * 2;

const transactionUser = z.object({ username: z.string() });

const transactionBase = z.object({
  /** The millix transaction hash; for a transfer between Quern wallets, the transfer id. */
  transaction_hash: z.string(),
  /** 'credit' is incoming, 'debit' outgoing (the spec treats anything but 'credit' as outgoing). */
  transaction_type: z.enum(['credit', 'debit']),
  from_address: z.string(),
  to_address: z.string(),
  from_user: transactionUser.optional(),
  to_user: transactionUser.optional(),
  /** The amount sent or received, without the fee. */
  amount: mlxWire,
  /** Debits only: the send fee, so that amount + fee explains the change of balance. */
  fee: mlxWire.optional(),
  /** Purchases, refunds and reversals (ADR 025) and checkout payments (ADR 029): the dashboard names them instead of an address. */
  purpose: transactionPurposeOutput.optional(),
});

/** A settled transaction; `balance` is the wallet's posted balance right after it. */
export const completedTransactionOutput = transactionBase.extend({ balance: mlxWire, transaction_date: z.iso.datetime() });
export type CompletedTransaction = z.infer<typeof completedTransactionOutput>;

/** A reservation or deposit not yet settled. */
export const pendingTransactionOutput = transactionBase.extend({ create_date: z.iso.datetime() });
export type PendingTransaction = z.infer<typeof pendingTransactionOutput>;

/** What the detail popup takes: it shows transaction_date, falling back to create_date. */
export const transactionItemOutput = z.union([completedTransactionOutput, pendingTransactionOutput]);
export type TransactionItem = z.infer<typeof transactionItemOutput>;

/** The detail's own URL (/account/transactions/<hash>): one of the caller's transactions by hash. */
export const transactionByHashQuery = z.strictObject({
  hash: z.string({ error: 'errors:transactionNotFound' }).regex(/^[A-Za-z0-9_:-]{1,128}$/, { error: 'errors:transactionNotFound' }),
});
export const transactionByHashOutput = z.object({ transaction: transactionItemOutput });

/**
 * A page number as a query string (digits) or JSON (a number) sends it. Not z.coerce: it reads
 * `true`, `null` and `[]` as pages 1, 0 and 0.
 */
const pageDigits = z
  .string()
  .regex(/^[0-9]{1,9}$/)
  .transform(Number);
const pageNumber = z
  .union([z.number(), pageDigits], { error: 'errors:invalidRequest' })
  .pipe(
    z
      .number()
      .int({ error: 'errors:invalidRequest' })
      .min(0, { error: 'errors:invalidRequest' })
      .max(TRANSACTIONS_PAGE_MAX, { error: 'errors:invalidRequest' }),
  );

/** GET /api/quern/transactions?page={n}; pages are 0-based. */
export const transactionsPageQuery = z.strictObject({ page: pageNumber.default(0), filter: historyFilterInput.optional() });
export type TransactionsPageQuery = z.infer<typeof transactionsPageQuery>;

/**
 * The REST form: the filter's fields as optional query parameters beside `page` (issue 25).
 * Without any of them the route answers exactly as the spec's GET did.
 */
export const transactionsRestQuery = z
  .strictObject({ page: pageNumber.default(0), ...historyFilterQueryFields })
  .superRefine((value, ctx) => checkHistoryRange(value, ctx, []))
  .transform(({ page, kind, counterparty, from, to }) => {
    const filter = { kind, counterparty, from, to };
    return { page, filter: hasHistoryFilter(filter) ? filter : undefined };
  });

export const transactionsPageOutput = z.object({
  transactions: z.array(completedTransactionOutput).max(TRANSACTIONS_PAGE_SIZE),
  total: z.number().int().min(0),
  page: z.number().int().min(0).max(TRANSACTIONS_PAGE_MAX),
  limit: z.number().int().min(1),
  /** Filtered reads only: the scan stopped at its bound, so older matches may be missing. */
  scan_limited: z.boolean().optional(),
});
export type TransactionsPage = z.infer<typeof transactionsPageOutput>;

/** GET /api/quern/pending-transactions. */
export const pendingTransactionsOutput = z.object({ content: z.array(pendingTransactionOutput).max(PENDING_TRANSACTIONS_MAX) });
export type PendingTransactions = z.infer<typeof pendingTransactionsOutput>;

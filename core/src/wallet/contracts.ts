/**
 * Wallet schemas shared by the web forms, the tRPC procedures and the REST routes (the spec's
 * section 7 field names, unchanged). Messages are i18n keys ("errors:..."). Amounts leave the
 * server as decimal strings: a JSON number cannot hold every MLX amount exactly.
 */
import { z } from 'zod';
import { normalizeEmail, normalizeUsername, usernamePattern } from '../shared/person-keys.js';
import { parseAddress } from './address.js';
import { checkHistoryRange, hasHistoryFilter, historyFilterInput, historyFilterQueryFields } from './history-filter.js';
import { OPEN_RESERVATIONS_MAX } from './decider.js';
import { TRANSFER_REFERENCE_ID_PATTERN } from './transfer-reference.js';
import { SEND_FEE_MLX, mlxToWire, parseMlxAmount } from './money.js';
import type { WalletState } from './state.js';
import { balanceOf, heldPurchasedMlx } from './state.js';

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
/** Longest recipient text read: an e-mail's maximum length. */
export const RECIPIENT_TEXT_LENGTH_MAX = 254;
const USERNAME_LENGTH_MAX = 32;
const USERNAME_LENGTH_MIN = 3;

export type Recipient = { kind: 'address'; address: string } | { kind: 'username'; username: string } | { kind: 'email'; email: string };

/**
 * Reads the send form's `to`: an e-mail (it has '@'), else a millix address, else a username.
 * Text longer than any username that is not a valid address is reported as an invalid address,
 * since that is what the person was trying to type. Usernames and e-mails are normalized as the
 * identity capability stores them; resolving them to a wallet is the handler's job.
 */
export function classifyRecipient(text: string): { ok: true; recipient: Recipient } | { ok: false; messageKey: string } {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, messageKey: 'errors:allFieldsRequired' };
  if (trimmed.length > RECIPIENT_TEXT_LENGTH_MAX) return { ok: false, messageKey: 'errors:invalidRecipient' };
  if (trimmed.includes('@')) {
    const email = z.email().safeParse(trimmed);
    return email.success
      ? { ok: true, recipient: { kind: 'email', email: normalizeEmail(email.data) } }
      : { ok: false, messageKey: 'errors:invalidEmail' };
  }
  const address = parseAddress(trimmed);
  if (address.ok) return { ok: true, recipient: { kind: 'address', address: address.address } };
  if (trimmed.length > USERNAME_LENGTH_MAX) return { ok: false, messageKey: 'errors:invalidAddress' };
  if (trimmed.length >= USERNAME_LENGTH_MIN && usernamePattern.test(trimmed)) {
    return { ok: true, recipient: { kind: 'username', username: normalizeUsername(trimmed) } };
  }
  return { ok: false, messageKey: 'errors:invalidRecipient' };
}

/**
 * Amounts arrive as text only. A JSON number cannot be told apart from what the sender typed:
 * `1.000` parses to 1 (a Spanish "one thousand" would move one MLX) and `1e3` to 1000, so a
 * number is refused rather than guessed at. Query strings, forms and the web app send text.
 */
const amountText = (messageKey: string) => z.string({ error: messageKey });

/**
 * An MLX amount as a form or a query string sends it: digits, thousands separators allowed
 * (stripped here). Output: bigint.
 */
export const mlxAmountInput = amountText('errors:invalidAmount').transform((value, ctx) => {
  const parsed = parseMlxAmount(value);
  if (parsed.ok) return parsed.amountMlx;
  ctx.addIssue({ code: 'custom', message: parsed.messageKey });
  return z.NEVER;
});

/** The send fee: the form shows it disabled at 1000; anything else is refused, never corrected. */
export const sendFeeInput = amountText('errors:invalidFee').transform((value, ctx) => {
  const parsed = parseMlxAmount(value);
  if (parsed.ok && parsed.amountMlx === SEND_FEE_MLX) return parsed.amountMlx;
  ctx.addIssue({ code: 'custom', message: 'errors:invalidFee' });
  return z.NEVER;
});

/** The spec's send: to (address, username or e-mail), amount, fee; nothing else (strict). */
export const sendInput = z.strictObject({
  to: z.string({ error: 'errors:allFieldsRequired' }).transform((value, ctx) => {
    const result = classifyRecipient(value);
    if (result.ok) return result.recipient;
    ctx.addIssue({ code: 'custom', message: result.messageKey });
    return z.NEVER;
  }),
  amount: mlxAmountInput,
  fee: sendFeeInput,
});
export type SendInput = z.input<typeof sendInput>;
export type SendCommandInput = z.output<typeof sendInput>;

/** The canonical wire form of an MLX amount (what mlxToWire writes). */
export const mlxWire = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);

const transactionUser = z.object({ username: z.string() });

const purposeId = z.string().regex(TRANSFER_REFERENCE_ID_PATTERN);
/** A shop's order reference as checkout takes it (CHECKOUT_REFERENCE_PATTERN, core/src/checkout). */
const merchantReference = z.string().regex(/^[A-Za-z0-9._:/#-]{1,64}$/);
/** A checkout cart's first item's name, as the shop sent it (checkout contracts: 1 to 200 characters). */
const firstItem = z.string().min(1).max(200);
/**
 * Not in the spec: what a transfer was for when it was not a plain send (purpose.ts). Optional, so
 * rows projected before it existed, and every send or deposit, stay valid without it.
 */
export const transactionPurposeOutput = z.union([
  z.object({
    kind: z.enum(['purchase', 'purchase_refund', 'purchase_reversal']),
    order_id: purposeId,
    capture_id: purposeId,
    refund_id: purposeId.optional(),
  }),
  // A checkout payment (ADR 029) has no provider capture: only the order it paid.
  // merchant_reference: the shop's own order reference (ADR 043), joined in when the history is
  // read, so both sides and the refund can name the order as the shop does.
  // first_item: the cart's first item, which names the payment when the shop gave no reference.
  z.object({
    kind: z.literal('checkout'),
    order_id: purposeId,
    merchant_reference: merchantReference.optional(),
    first_item: firstItem.optional(),
  }),
  // A merchant's refund of a checkout order and a merchant's payout (ADR 033).
  z.object({
    kind: z.literal('checkout_refund'),
    order_id: purposeId,
    refund_id: purposeId,
    merchant_reference: merchantReference.optional(),
    first_item: firstItem.optional(),
  }),
  z.object({ kind: z.literal('payout'), payout_id: purposeId }),
  // One period of a subscription (ADR 037).
  z.object({ kind: z.literal('subscription_charge'), subscription_id: purposeId, period: z.number().int().min(1) }),
]);

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

/** GET /api/millix/current-rate: USD per MLX as exact decimal text, null while no rate is set. */
export const rateOutput = z.object({ rate: z.string().nullable() });

/** GET /api/millix/address. */
export const addressOutput = z.object({ address: z.string() });

/**
 * GET /api/millix/balance/{address}: the spec's stable and unstable (millix's meaning: unstable =
 * deposits not yet confirmed), plus what the pending list adds up to in each direction (ADR 062:
 * the dashboard's Pending figure is pending_incoming − pending_outgoing). The two extra fields are
 * optional so that answers built from the log alone (toBalanceOutput) still fit.
 */
export const balanceOutput = z.object({
  stable: mlxWire,
  unstable: mlxWire,
  pending_incoming: mlxWire.optional(),
  pending_outgoing: mlxWire.optional(),
});
export type BalanceOutput = z.infer<typeof balanceOutput>;

/**
 * The dashboard's note on bought MLX not yet free to send or pay out (ADR 047): how much, and
 * when the last of it is free (ISO 8601); "0" and null when nothing is held.
 */
export const purchaseHoldOutput = z.object({ heldMlx: mlxWire, holdUntil: z.string().nullable() });
export type PurchaseHoldOutput = z.infer<typeof purchaseHoldOutput>;

export function toPurchaseHoldOutput(state: WalletState, now: Date): PurchaseHoldOutput {
  const { heldMlx, holdUntil } = heldPurchasedMlx(state, now);
  return { heldMlx: mlxToWire(heldMlx), holdUntil: holdUntil ?? null };
}

export function toBalanceOutput(state: WalletState): BalanceOutput {
  const balance = balanceOf(state);
  return { stable: mlxToWire(balance.stableMlx), unstable: mlxToWire(balance.unstableMlx) };
}

/** The send's answer: the transfer to follow (the first one, when the request was a retry). */
export const sendOutput = z.object({ transferId: z.string(), status: z.enum(['reserved', 'posted', 'voided']) });
export type SendOutput = z.infer<typeof sendOutput>;

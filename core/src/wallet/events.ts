/**
 * Wallet events: the ledger. Published event types are never renamed; a new shape gets a new
 * type or an upcaster. Amounts are decimal strings (`amountMlx: "1000"`) because JSON has no
 * bigint; see money.ts for the conversions. Every event names its wallet, so a reader of the
 * global log needs no stream-name parsing. The design, and why, is in
 * docs/decisions/005-wallet-ledger-events.md.
 *
 * Streams: `wallet-<walletId>`, one per wallet, user wallets and system accounts alike.
 *
 * A send is a two-phase transfer (like TigerBeetle's pending transfers):
 *   1. TransferReserved on the payer's stream, appended under optimistic concurrency: a hold of
 *      amount + fee. The available balance (posted - holds) can never go negative.
 *   2. Internal payee (a Quern wallet): TransferCredited on the payee's stream (idempotent by
 *      transfer id), then TransferPosted on the payer's stream. External payee (any other
 *      millix address): the settlement worker submits the millix transaction, then posts.
 *   3. Or TransferVoided on the payer's stream when the payee cannot be credited (or the network
 *      refuses): the hold is released. Never after a credit.
 *
 * Derived accounts: the fee account and the network account receive money on every settled
 * send, so appending to their streams would serialize all sends through two hot streams. Their
 * balances are instead derived from the payers' TransferPosted events (fee: every feeMlx;
 * network: the amountMlx of external sends) and the DepositConfirmed events (network: minus).
 * Their own streams hold only what is addressed to them directly (WalletOpened; for the network
 * account, the genesis allocation of the MLX that lives outside Quern).
 *
 * Deposits (MLX arriving from the millix network at a Quern address) are pending until the
 * network marks them stable: DepositReceived adds to the wallet's pending credits (not
 * spendable), DepositConfirmed moves them to the posted balance, DepositRejected drops them
 * (the network invalidated the transaction, e.g. a double spend).
 *
 * Read models are written from each event alone (a projection cannot read inside its Redis
 * transaction), so an event repeats what a history row needs: the balance after it
 * (`balanceAfter`) and, on settlements, the addresses, hash and payee of the event it settles.
 * Those repeated fields are optional in the schemas, because events recorded before they were
 * added lack them.
 */
import { z } from 'zod';
import { type TransferReference, transferReferenceSchema } from './transfer-reference.js';

export const walletStream = (walletId: string): string => `wallet-${walletId}`;
/** One stream per deposit id, created with the deposit (ADR 020): a deposit id is recorded once, ever. */
export const depositClaimStream = (depositId: string): string => `deposit-claim-${depositId}`;
export const DEPOSIT_CLAIMED_EVENT = 'DepositClaimed';
export const WALLET_STREAM_PREFIX = 'wallet-';

export type WalletKind = 'user' | 'genesis' | 'reserve' | 'fee' | 'network';
export const walletKinds: readonly WalletKind[] = ['user', 'genesis', 'reserve', 'fee', 'network'];

/** The fixed ids of the system accounts (their streams are `wallet-system-fee` and so on). */
export const SYSTEM_WALLET_IDS: Readonly<Record<Exclude<WalletKind, 'user'>, string>> = {
  genesis: 'system-genesis',
  reserve: 'system-reserve',
  fee: 'system-fee',
  network: 'system-network',
};

/** Why a reservation was released instead of settled. */
export type TransferVoidReason =
  /** The payee wallet named by the reservation does not exist. */
  | 'recipientNotFound'
  /** The payee exists but cannot take credits (a derived system account). */
  | 'recipientCannotReceive'
  /** The millix network refused the transaction of an external send. */
  | 'networkRejected'
  /** Settlement gave up after its bounded retries. */
  | 'expired'
  /** The payee's wallet was closed (its account deleted, ADR 042) before the credit. */
  | 'recipientClosed';
export const transferVoidReasons: readonly TransferVoidReason[] = [
  'recipientNotFound',
  'recipientCannotReceive',
  'networkRejected',
  'expired',
  'recipientClosed',
];

/** Why a wallet was closed (ADR 042). */
export type WalletCloseReason = 'accountDeleted';
export const walletCloseReasons: readonly WalletCloseReason[] = ['accountDeleted'];

export type DepositRejectReason = 'networkInvalidated' | 'expired';
export const depositRejectReasons: readonly DepositRejectReason[] = ['networkInvalidated', 'expired'];

/**
 * The wallet's balance right after the event, written by the decider. Read models show "balance
 * after" per transaction from it without reading Redis inside a projection transaction. Optional
 * so that a reader never depends on it for correctness: the fold recomputes balances itself.
 */
export interface BalanceSnapshot {
  postedMlx: string;
  heldMlx: string;
  pendingCreditMlx: string;
}

export interface WalletOpened {
  type: 'WalletOpened';
  data: { walletId: string; kind: WalletKind; address: string; ownerUserId?: string; openedAt: string };
}

/** Genesis only: brings MLX into existence. The audit checks every balance against the sum. */
export interface SupplyMinted {
  type: 'SupplyMinted';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    amountMlx: string;
    /** The genesis wallet's address, so its history row names where the supply went. */
    toAddress?: string;
    mintedAt: string;
  };
}

/** Payer's stream: a hold of amountMlx + feeMlx. `toWalletId` is set when the payee is a Quern wallet. */
export interface TransferReserved {
  type: 'TransferReserved';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    transferId: string;
    fromAddress: string;
    toAddress: string;
    toWalletId?: string;
    amountMlx: string;
    feeMlx: string;
    idempotencyKey?: string;
    /**
     * Set when the reservation was appended together with its post and the payee's credit (one
     * atomic append, ADR 019): no settlement job is needed for it.
     */
    settledAtOnce?: true;
    reference?: TransferReference;
    reservedAt: string;
  };
}

/** Payee's stream: the amount is posted to the payee at once; the payer's hold backs it. */
export interface TransferCredited {
  type: 'TransferCredited';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    transferId: string;
    fromWalletId: string;
    fromAddress: string;
    toAddress: string;
    amountMlx: string;
    /**
     * Set when the credit was appended together with the payer's reservation and post (ADR 019):
     * a repeat is impossible (the payer's expected revision guards it), so the payee's state may
     * forget it once settled (ADR 020). Credits without it are remembered forever.
     */
    settledAtOnce?: true;
    reference?: TransferReference;
    /**
     * A purchase's credit (reference kind `purchase`) only: until this time (ISO 8601) the
     * credited MLX may pay checkouts and subscriptions but may not be sent or paid out, so a card
     * chargeback can still take it back (PURCHASE_HOLD_HOURS, ADR 047). Credits recorded before
     * the hold existed have none and hold nothing.
     */
    holdUntil?: string;
    creditedAt: string;
  };
}

/**
 * Payer's stream: the hold becomes a settled debit of amountMlx + feeMlx. Carries the amounts and
 * payee so that the fee and network accounts can be derived from this event alone.
 */
export interface TransferPosted {
  type: 'TransferPosted';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    transferId: string;
    /** The payer's address, so the history row needs nothing from the reservation. */
    fromAddress?: string;
    toAddress: string;
    toWalletId?: string;
    amountMlx: string;
    feeMlx: string;
    /** The millix transaction of an external send. */
    networkTransactionHash?: string;
    reference?: TransferReference;
    postedAt: string;
  };
}

/** Payer's stream: the hold is released; nothing moved. */
export interface TransferVoided {
  type: 'TransferVoided';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    transferId: string;
    /** The payee when it is a Quern wallet: its read model drops the pending credit it showed. */
    toWalletId?: string;
    amountMlx: string;
    feeMlx: string;
    reason: TransferVoidReason;
    voidedAt: string;
  };
}

/** Payee's stream: an incoming millix transaction seen on the network, not yet stable. */
export interface DepositReceived {
  type: 'DepositReceived';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    /** The transaction hash and output that paid this wallet, e.g. "<hash>:<output position>". */
    depositId: string;
    networkTransactionHash: string;
    fromAddress: string;
    toAddress: string;
    amountMlx: string;
    /**
     * Set when the deposit id was claimed (its `deposit-claim-<depositId>` stream created) in the
     * same atomic append (ADR 020): the claim keeps the id idempotent forever, so the wallet's state
     * may forget the deposit once it is settled. Deposits without it are remembered forever.
     */
    claimed?: true;
    receivedAt: string;
  };
}

/**
 * The hash and addresses repeat the DepositReceived's, so the history row is written from this
 * event alone (a projection cannot read what it wrote for the DepositReceived).
 */
export interface DepositConfirmed {
  type: 'DepositConfirmed';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    depositId: string;
    networkTransactionHash?: string;
    fromAddress?: string;
    toAddress?: string;
    amountMlx: string;
    confirmedAt: string;
  };
}

export interface DepositRejected {
  type: 'DepositRejected';
  data: {
    balanceAfter?: BalanceSnapshot;
    walletId: string;
    depositId: string;
    /** The address paid (added for invoices, issue 27; older events lack it). */
    toAddress?: string;
    amountMlx: string;
    reason: DepositRejectReason;
    rejectedAt: string;
  };
}

/**
 * A user's wallet closed for good (ADR 042, account deletion), decided only at zero: no posted
 * balance, no holds, no pending deposits. Terminal: the wallet never sends again and no Quern
 * wallet pays into it; deposits from the millix network are still recorded (the MLX did arrive at
 * an address Quern holds), and the audit reports them as held for closed accounts.
 */
export interface WalletClosed {
  type: 'WalletClosed';
  data: { walletId: string; reason: WalletCloseReason; closedAt: string };
}

export type WalletEvent =
  | WalletOpened
  | SupplyMinted
  | TransferReserved
  | TransferCredited
  | TransferPosted
  | TransferVoided
  | DepositReceived
  | DepositConfirmed
  | DepositRejected
  | WalletClosed;

export type WalletEventType = WalletEvent['type'];

/** Ids of wallets, transfers and deposits: bounded, and safe in stream names and Redis keys. */
export const WALLET_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
export const TRANSFER_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const DEPOSIT_ID_PATTERN = /^[A-Za-z0-9:_-]{1,160}$/;
export const NETWORK_TRANSACTION_HASH_PATTERN = /^[A-Za-z0-9]{1,128}$/;
/** Printable ASCII, as HTTP headers carry it (the REST Idempotency-Key header). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

// Tolerant readers for recorded events: unknown extra fields are dropped, missing or malformed
// ones refuse the event, so a corrupted log is reported by the audit instead of folded silently.
const amount = z.string().regex(/^(0|[1-9][0-9]{0,19})$/);
const time = z.string().min(1).max(40);
const text = z.string().min(1).max(200);

const balanceSnapshot = z.object({ postedMlx: amount, heldMlx: amount, pendingCreditMlx: amount });

const dataSchemas: { [K in WalletEventType]: z.ZodType<Extract<WalletEvent, { type: K }>['data']> } = {
  WalletOpened: z.object({ walletId: text, kind: z.enum(walletKinds), address: text, ownerUserId: text.optional(), openedAt: time }),
  SupplyMinted: z.object({
    walletId: text,
    amountMlx: amount,
    toAddress: text.optional(),
    mintedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  TransferReserved: z.object({
    walletId: text,
    transferId: text,
    fromAddress: text,
    toAddress: text,
    toWalletId: text.optional(),
    amountMlx: amount,
    feeMlx: amount,
    idempotencyKey: z.string().min(1).max(255).optional(),
    settledAtOnce: z.literal(true).optional(),
    reference: transferReferenceSchema.optional(),
    reservedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  TransferCredited: z.object({
    walletId: text,
    transferId: text,
    fromWalletId: text,
    fromAddress: text,
    toAddress: text,
    amountMlx: amount,
    settledAtOnce: z.literal(true).optional(),
    holdUntil: time.optional(),
    reference: transferReferenceSchema.optional(),
    creditedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  TransferPosted: z.object({
    walletId: text,
    transferId: text,
    fromAddress: text.optional(),
    toAddress: text,
    toWalletId: text.optional(),
    amountMlx: amount,
    feeMlx: amount,
    networkTransactionHash: text.optional(),
    reference: transferReferenceSchema.optional(),
    postedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  TransferVoided: z.object({
    walletId: text,
    transferId: text,
    toWalletId: text.optional(),
    amountMlx: amount,
    feeMlx: amount,
    reason: z.enum(transferVoidReasons),
    voidedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  DepositReceived: z.object({
    walletId: text,
    depositId: text,
    networkTransactionHash: text,
    fromAddress: text,
    toAddress: text,
    amountMlx: amount,
    claimed: z.literal(true).optional(),
    receivedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  DepositConfirmed: z.object({
    walletId: text,
    depositId: text,
    networkTransactionHash: text.optional(),
    fromAddress: text.optional(),
    toAddress: text.optional(),
    amountMlx: amount,
    confirmedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  DepositRejected: z.object({
    walletId: text,
    depositId: text,
    toAddress: text.optional(),
    amountMlx: amount,
    reason: z.enum(depositRejectReasons),
    rejectedAt: time,
    balanceAfter: balanceSnapshot.optional(),
  }),
  WalletClosed: z.object({ walletId: text, reason: z.enum(walletCloseReasons), closedAt: time }),
};

export const isWalletEventType = (type: string): type is WalletEventType => Object.hasOwn(dataSchemas, type);

/**
 * Turns a recorded event (type + JSON data, as the event store returns it) into a WalletEvent,
 * or undefined when the type is not a wallet event or the data does not have its shape.
 */
export function toWalletEvent(recorded: { type: string; data: unknown }): WalletEvent | undefined {
  if (!isWalletEventType(recorded.type)) return undefined;
  const parsed = dataSchemas[recorded.type].safeParse(recorded.data);
  if (!parsed.success) return undefined;
  return { type: recorded.type, data: parsed.data } as WalletEvent;
}

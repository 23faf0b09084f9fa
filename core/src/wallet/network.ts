/**
 * The millix-network port: how Quern reaches addresses that are not Quern wallets, and how MLX
 * sent to Quern addresses from outside comes in. Pure types and checks, no I/O. Two adapters
 * implement it in `api/src/infra/millix/`: a simulated network (the offline default, a SQLite
 * file that the dev faucet also writes to) and the millix node HTTP API. The design, and what was
 * verified against millix-node's source, is in docs/decisions/008-millix-network-port.md.
 *
 * Who calls what:
 * - The settlement worker calls `send` for an external transfer (after TransferReserved) and
 *   posts the transfer with the hash it returns; a MillixNetworkError tells it whether to retry
 *   (`unavailable`) or to void the transfer (`rejected`, `invalidAddress`).
 * - The deposit watcher keeps a cursor into `incomingSince`, keeps what is addressed to Quern
 *   wallets (ReceiveDeposit), and polls `transactionStatus` until the deposit is stable
 *   (ConfirmDeposit) or rejected (RejectDeposit).
 *
 * Named MillixNetworkPort, not MillixNetwork: that name is already the 'mainnet' | 'testnet'
 * type of address.ts, and both are exported from `@quern/core/wallet`.
 */
import { parseAddress } from './address.js';
import { MLX_TOTAL_SUPPLY, SEND_FEE_MLX } from './money.js';
import { TRANSFER_ID_PATTERN } from './events.js';

/** What the network says about one transaction. */
export type MillixTransactionStatus =
  /** Known to the network, not yet stable (millix: is_stable = 0). Spendable by nobody yet. */
  | 'pending'
  /** Final (millix: is_stable = 1 and not invalid). */
  | 'stable'
  /** The network invalidated it (millix: status 3 "invalid", or a double spend). Final. */
  | 'rejected'
  /** The network does not know the hash (never sent, not synced yet, or pruned). */
  | 'unknown';
export const millixTransactionStatuses: readonly MillixTransactionStatus[] = ['pending', 'stable', 'rejected', 'unknown'];

export interface MillixSendRequest {
  /** The Quern transfer this transaction settles; the idempotency key of `send`. */
  transferId: string;
  /**
   * The payer's Quern address. Informational for the node adapter: the node pays from its own
   * (Quern's custodial) wallet, because Quern's ledger, not the network, holds user balances.
   */
  fromAddress: string;
  toAddress: string;
  amountMlx: bigint;
  feeMlx: bigint;
}

export interface MillixSendResult {
  /** The millix transaction id (Base58, about 49 characters). */
  transactionHash: string;
}

export interface MillixBalance {
  /** millix's "stable" balance of the address. */
  stableMlx: bigint;
  /** millix's "unstable" (pending) balance of the address. */
  unstableMlx: bigint;
}

/** One output of a network transaction, paying `toAddress`. */
export interface IncomingTransaction {
  transactionHash: string;
  /**
   * The output's position in its transaction. A transaction can pay several addresses, so the
   * deposit id is `<transactionHash>:<outputPosition>` (see depositIdOf). Negative for millix
   * fee outputs, which come first (-1, -2...).
   */
  outputPosition: number;
  toAddress: string;
  /** The first input's address: who paid. */
  fromAddress: string;
  amountMlx: bigint;
  /** ISO-8601 UTC time the network dates the transaction. */
  observedAt: string;
}

export interface IncomingPage {
  transactions: IncomingTransaction[];
  /** Pass back to get the next page. Unchanged when the page is empty. Opaque to callers. */
  cursor: string;
}

export interface MillixNetworkPort {
  /**
   * Submits a transaction paying `amountMlx` to `toAddress`. Idempotent by transferId: a second
   * call with the same transferId (after a crash, a timeout, a duplicate job) returns the same
   * hash and moves nothing again; the same transferId with different details is `rejected`.
   * Rejects with MillixNetworkError.
   */
  send(request: MillixSendRequest): Promise<MillixSendResult>;
  transactionStatus(transactionHash: string): Promise<MillixTransactionStatus>;
  /** Rejects with MillixNetworkError `invalidAddress` for an invalid address. */
  balance(address: string): Promise<MillixBalance>;
  /**
   * A bounded, resumable feed of transaction outputs to any address, oldest first: at most
   * `limit` (1..INCOMING_PAGE_SIZE_MAX) after `cursor` (from the beginning when undefined). The
   * caller keeps the cursor and filters to its own addresses. Delivery is at least once: a
   * consumer must recognise an output it has already seen (ReceiveDeposit is idempotent by
   * deposit id, so the wallet decider already does).
   */
  incomingSince(cursor: string | undefined, limit: number): Promise<IncomingPage>;
  close(): Promise<void>;
}

/** Upper bound on `limit` in incomingSince. */
export const INCOMING_PAGE_SIZE_MAX = 1000;

export type MillixNetworkErrorCode =
  /** The network (or node) refused the transaction; sending it again will not help. Final. */
  | 'rejected'
  /** The network could not be reached or did not answer in time; retry later. */
  | 'unavailable'
  /** The address is not a valid millix address. Final. */
  | 'invalidAddress';
export const millixNetworkErrorCodes: readonly MillixNetworkErrorCode[] = ['rejected', 'unavailable', 'invalidAddress'];

/**
 * A network-level failure. Not an AppError: users never see it directly. The settlement worker
 * voids the transfer (reason `networkRejected`) on a final code and retries on `unavailable`.
 */
export class MillixNetworkError extends Error {
  constructor(
    readonly code: MillixNetworkErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MillixNetworkError';
  }

  /** Whether calling again later can succeed. */
  get retryable(): boolean {
    return this.code === 'unavailable';
  }
}

export const isMillixNetworkError = (error: unknown): error is MillixNetworkError => error instanceof MillixNetworkError;

/** The wallet's deposit id for an incoming output (DEPOSIT_ID_PATTERN accepts it). */
export const depositIdOf = (incoming: Pick<IncomingTransaction, 'transactionHash' | 'outputPosition'>): string =>
  `${incoming.transactionHash}:${incoming.outputPosition}`;

/**
 * Checks a send request before any adapter acts on it, so both adapters refuse the same things
 * the same way. Throws MillixNetworkError (`invalidAddress` for either address, `rejected` for
 * the rest) or returns nothing. The fee floor is millix's minimum (SEND_FEE_MLX, 1000).
 */
export function assertValidSendRequest(request: MillixSendRequest): void {
  if (typeof request.transferId !== 'string' || !TRANSFER_ID_PATTERN.test(request.transferId)) {
    throw new MillixNetworkError('rejected', `invalid transfer id: ${JSON.stringify(request.transferId)}`);
  }
  for (const [name, address] of [
    ['fromAddress', request.fromAddress],
    ['toAddress', request.toAddress],
  ] as const) {
    const parsed = parseAddress(address);
    if (!parsed.ok) throw new MillixNetworkError('invalidAddress', `${name} is not a millix address (${parsed.reason})`);
  }
  const { amountMlx, feeMlx } = request;
  if (typeof amountMlx !== 'bigint' || amountMlx <= 0n || amountMlx > MLX_TOTAL_SUPPLY) {
    throw new MillixNetworkError('rejected', `amount must be a positive integer up to the supply: ${String(amountMlx)}`);
  }
  if (typeof feeMlx !== 'bigint' || feeMlx < SEND_FEE_MLX || feeMlx > MLX_TOTAL_SUPPLY) {
    throw new MillixNetworkError('rejected', `fee must be at least ${SEND_FEE_MLX}: ${String(feeMlx)}`);
  }
}

/** Throws a RangeError for a limit outside 1..INCOMING_PAGE_SIZE_MAX: a caller bug, not a network failure. */
export function assertIncomingLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > INCOMING_PAGE_SIZE_MAX) {
    throw new RangeError(`incomingSince: limit must be an integer in 1..${INCOMING_PAGE_SIZE_MAX}, got ${String(limit)}`);
  }
}

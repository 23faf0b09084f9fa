/**
 * Pure wallet decisions: given a wallet's state, a command and the time as data, which events
 * happen, or which domain error. No I/O, no clock, no randomness.
 *
 * Retries are answered, not refused: a command already applied (same transfer id, same
 * idempotency key, same deposit id, a second post of a posted transfer) decides no events, so a
 * handler or worker that runs twice has the effect of running once. The same id with different
 * details is a CONFLICT, because silently answering with the first result would hide a client bug
 * that could move the wrong amount.
 */
import { assertNever } from '../shared/assert.js';
import { withBalanceAfter } from './balance-after.js';
import type { AppErrorCode } from '../shared/errors.js';
import { AppError } from '../shared/errors.js';
import { InsufficientFundsRefusal, RecipientClosedRefusal } from './refusals.js';
import { isSameWallet, parseAddress } from './address.js';
import type {
  CloseWallet,
  CreditTransfer,
  MintSupply,
  OpenWallet,
  PostTransfer,
  ReceiveDeposit,
  ReserveTransfer,
  VoidTransfer,
  WalletCommand,
} from './commands.js';
import type { WalletEvent, WalletKind } from './events.js';
import {
  DEPOSIT_ID_PATTERN,
  IDEMPOTENCY_KEY_PATTERN,
  NETWORK_TRANSACTION_HASH_PATTERN,
  SYSTEM_WALLET_IDS,
  TRANSFER_ID_PATTERN,
  WALLET_ID_PATTERN,
  depositRejectReasons,
  transferVoidReasons,
  walletCloseReasons,
  walletKinds,
} from './events.js';
import { PLAIN_SEND_TERMS, type TransferParty, type TransferTerms, type TransferTermsBook, termsOf } from './transfer-terms.js';
import { MLX_TOTAL_SUPPLY, SEND_FEE_MLX, mlxFromWire, mlxToWire } from './money.js';
import type { OutgoingTransfer, WalletIdentity, WalletState } from './state.js';
import { availableMlx, heldPurchasedMlx, isWalletClosed, isWalletEmpty } from './state.js';

/**
 * Reservations a wallet may have open at once. Settlement takes seconds; a wallet with this many
 * unsettled sends is a runaway client or a stalled worker, and more holds would only pile up.
 */
export const OPEN_RESERVATIONS_MAX = 100;

/** Which kinds of wallet may send, take credits and take deposits. */
const SENDING_KINDS: ReadonlySet<WalletKind> = new Set(['user', 'reserve', 'genesis']);
// The fee account is derived from posted transfers (see events.ts): a credit to its stream would
// be counted twice, so it takes none.
const CREDITABLE_KINDS: ReadonlySet<WalletKind> = new Set(['user', 'reserve', 'genesis', 'network']);
const DEPOSIT_KINDS: ReadonlySet<WalletKind> = new Set(['user', 'reserve']);

export interface WalletDecision {
  /** Events to append to the wallet's stream, in order; empty when the command was already applied. */
  events: WalletEvent[];
  /** ReserveTransfer only: the transfer to report to the caller (the first one, on a retry). */
  transferId?: string;
}

const fail = (code: AppErrorCode, messageKey: string, fields: Record<string, string> = {}, params: Record<string, string | number> = {}) =>
  new AppError(code, messageKey, fields, params);
const invalidRequest = () => fail('VALIDATION', 'errors:invalidRequest');
const conflict = () => fail('CONFLICT', 'errors:idempotencyConflict');
/** A payee whose wallet was closed (ADR 042): no Quern wallet pays into it. */
const recipientClosed = () => new RecipientClosedRefusal();

function requireWallet(state: WalletState, missingKey = 'errors:notFound'): WalletIdentity {
  if (!state.wallet) throw fail('NOT_FOUND', missingKey);
  return state.wallet;
}

function requireId(value: unknown, pattern: RegExp): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw invalidRequest();
  return value;
}

/** A positive whole amount no larger than the supply; `field` names the form field. */
function requireAmount(amountMlx: unknown, field = 'amount'): bigint {
  if (typeof amountMlx !== 'bigint' || amountMlx <= 0n)
    throw fail('VALIDATION', 'errors:invalidAmount', { [field]: 'errors:invalidAmount' });
  if (amountMlx > MLX_TOTAL_SUPPLY) throw fail('VALIDATION', 'errors:amountTooLarge', { [field]: 'errors:amountTooLarge' });
  return amountMlx;
}

/** A valid address on this wallet's network: a testnet address is no payee for a mainnet wallet. */
function requireAddress(address: unknown, wallet: WalletIdentity, field: string): string {
  const parsed = typeof address === 'string' ? parseAddress(address) : undefined;
  if (!parsed?.ok || parsed.network !== wallet.network)
    throw fail('VALIDATION', 'errors:invalidAddress', { [field]: 'errors:invalidAddress' });
  return parsed.address;
}

function timestamp(now: Date): string {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('decide: now must be a valid Date');
  return now.toISOString();
}

function decideOpen(state: WalletState, data: OpenWallet['data'], at: string): WalletDecision {
  const walletId = requireId(data.walletId, WALLET_ID_PATTERN);
  if (!walletKinds.includes(data.kind)) throw invalidRequest();
  const parsed = parseAddress(data.address);
  if (!parsed.ok) throw fail('VALIDATION', 'errors:invalidAddress', { address: 'errors:invalidAddress' });
  // One wallet per system kind, at a known id, so every part of Quern can find the fee account.
  if (data.kind !== 'user' && walletId !== SYSTEM_WALLET_IDS[data.kind]) throw invalidRequest();
  if (data.kind === 'user' && (typeof data.ownerUserId !== 'string' || data.ownerUserId.length === 0)) throw invalidRequest();
  if (data.kind !== 'user' && data.ownerUserId !== undefined) throw invalidRequest();
  if (state.wallet) {
    const same =
      state.wallet.walletId === walletId &&
      state.wallet.kind === data.kind &&
      state.wallet.address === data.address &&
      state.wallet.ownerUserId === data.ownerUserId;
    if (same) return { events: [] };
    throw conflict();
  }
  const opened: Extract<WalletEvent, { type: 'WalletOpened' }> = {
    type: 'WalletOpened',
    data: { walletId, kind: data.kind, address: data.address, openedAt: at },
  };
  if (data.ownerUserId !== undefined) opened.data.ownerUserId = data.ownerUserId;
  return { events: [opened] };
}

/** The supply is minted once; a retry of the same mint is answered, a second mint refused. */
function decideMint(state: WalletState, data: MintSupply['data'], at: string): WalletDecision {
  const wallet = requireWallet(state);
  if (wallet.kind !== 'genesis') throw fail('FORBIDDEN', 'errors:forbidden');
  const amountMlx = requireAmount(data.amountMlx);
  if (state.mintedMlx > 0n) {
    if (state.mintedMlx === amountMlx) return { events: [] };
    throw conflict();
  }
  const minted = { walletId: wallet.walletId, amountMlx: mlxToWire(amountMlx), toAddress: wallet.address, mintedAt: at };
  return { events: [{ type: 'SupplyMinted', data: minted }] };
}

function sameReservation(existing: OutgoingTransfer, data: ReserveTransfer['data']): boolean {
  return (
    existing.toAddress === data.toAddress &&
    existing.toWalletId === data.toWalletId &&
    existing.amountMlx === data.amountMlx &&
    existing.feeMlx === data.feeMlx
  );
}

/** A retry (same idempotency key or same transfer id) answers with the first transfer. */
function findRetry(state: WalletState, data: ReserveTransfer['data']): WalletDecision | undefined {
  const existingId = data.idempotencyKey === undefined ? undefined : state.idempotencyKeys.get(data.idempotencyKey);
  const candidateId = existingId ?? data.transferId;
  const existing = state.transfers.get(candidateId);
  if (!existing) return undefined;
  if (existing.direction !== 'outgoing' || !sameReservation(existing, data)) throw conflict();
  return { events: [], transferId: existing.transferId };
}

/** What every send checks, whichever way it settles: sender, ids, retry, amount, fee, address, self. */
function checkSend(
  state: WalletState,
  data: ReserveTransfer['data'],
  book: TransferTermsBook,
): { wallet: WalletIdentity; retry?: WalletDecision; toAddress: string; amountMlx: bigint; terms: SendTerms } {
  const wallet = requireWallet(state);
  if (!SENDING_KINDS.has(wallet.kind)) throw fail('FORBIDDEN', 'errors:forbidden');
  // A closed wallet (ADR 042) never reserves again, not even a retry's answer: its account is gone.
  if (isWalletClosed(state)) throw fail('CONFLICT', 'errors:accountDeleted');
  requireId(data.transferId, TRANSFER_ID_PATTERN);
  if (data.idempotencyKey !== undefined) requireId(data.idempotencyKey, IDEMPOTENCY_KEY_PATTERN);
  if (data.toWalletId !== undefined) requireId(data.toWalletId, WALLET_ID_PATTERN);
  // Before the balance check: a retry must get the first answer even if funds have moved since.
  const retry = findRetry(state, data);
  if (retry) return { wallet, retry, toAddress: '', amountMlx: 0n, terms: PLAIN_SEND_TERMS };
  const amountMlx = requireAmount(data.amountMlx);
  // The fee is the kind's (a purchase, a checkout payment: none; a payout: the send's). A kind the
  // book lacks is refused just below, after the fee, as every malformed reference is.
  const kindTerms = data.reference === undefined ? PLAIN_SEND_TERMS : termsOf(book, data.reference);
  const feeMlx = kindTerms?.fee === 'send' ? SEND_FEE_MLX : 0n;
  if (data.feeMlx !== feeMlx) throw fail('VALIDATION', 'errors:invalidFee', { fee: 'errors:invalidFee' });
  const terms = termsOfSend(book, wallet, data);
  const toAddress = requireAddress(data.toAddress, wallet, 'to');
  if (data.toWalletId === wallet.walletId || isSameWallet(toAddress, wallet.address)) {
    throw fail('VALIDATION', 'errors:cannotSendToSelf', { to: 'errors:cannotSendToSelf' });
  }
  return { wallet, toAddress, amountMlx, terms };
}

/** A send's terms: its reference kind's, or a plain send's. */
type SendTerms = Omit<TransferTerms, 'reference'>;

/**
 * The terms of the transfer's reference kind (ADR 077), checked against the reservation: its
 * fields, its payer and, for a transfer to the reserve, its payee. decideTransfer checks a payee
 * that must be a user's wallet. A kind the book does not have is refused.
 */
function termsOfSend(book: TransferTermsBook, wallet: WalletIdentity, data: ReserveTransfer['data']): SendTerms {
  const reference = data.reference;
  if (reference === undefined) return PLAIN_SEND_TERMS;
  const kindTerms = termsOf(book, reference);
  if (kindTerms === undefined || !kindTerms.reference.safeParse(reference).success) throw invalidRequest();
  if (!isParty(kindTerms.payer, wallet.kind, wallet.walletId)) throw fail('FORBIDDEN', 'errors:forbidden');
  if (kindTerms.payee === 'reserve' && data.toWalletId !== SYSTEM_WALLET_IDS.reserve) throw fail('FORBIDDEN', 'errors:forbidden');
  return kindTerms;
}

const isParty = (party: TransferParty, kind: WalletKind, walletId: string): boolean =>
  party === 'any' || (party === 'user' ? kind === 'user' : walletId === SYSTEM_WALLET_IDS.reserve);

function requireFunds(state: WalletState, requiredMlx: bigint): void {
  const spendableMlx = availableMlx(state);
  if (requiredMlx > spendableMlx) throw new InsufficientFundsRefusal(requiredMlx, spendableMlx);
}

/**
 * The typed refusal of a send or payout that would use MLX bought with PayPal before its hold
 * ended (ADR 047). Callers branch on `instanceof` or `reason`, never on the message.
 */
export class PurchaseHoldRefusal extends AppError {
  readonly reason = 'purchaseHold' as const;
  constructor(
    /** Bought MLX still held now. */
    readonly heldMlx: bigint,
    /** When the last of it may leave (ISO 8601). */
    readonly holdUntil: string,
    /** What may be sent now, fee included (never negative). */
    readonly sendableMlx: bigint,
  ) {
    super(
      'CONFLICT',
      'errors:purchasedMlxHeld',
      { amount: 'errors:purchasedMlxHeld' },
      { heldMlx: mlxToWire(heldMlx), holdUntil, sendableMlx: mlxToWire(sendableMlx) },
    );
    this.name = 'PurchaseHoldRefusal';
  }
}

/**
 * Sends and payouts may not use MLX bought with PayPal before its hold ends (ADR 047): their terms
 * say `blocked`. Checkout and subscription payments, and the reserve's own transfers, may. Checked
 * after the plain funds check.
 */
function requireUnheldFunds(state: WalletState, terms: SendTerms, requiredMlx: bigint, now: Date): void {
  if (terms.purchaseHold !== 'blocked') return;
  const { heldMlx, holdUntil } = heldPurchasedMlx(state, now);
  if (heldMlx === 0n || holdUntil === undefined) return;
  const sendableMlx = availableMlx(state) - heldMlx;
  if (requiredMlx > sendableMlx) throw new PurchaseHoldRefusal(heldMlx, holdUntil, sendableMlx > 0n ? sendableMlx : 0n);
}

/** A purchase credit's hold time: a valid ISO time, and only on a transfer whose terms start a hold. */
function requireHoldUntil(data: ReserveTransfer['data'], terms: SendTerms): void {
  if (data.holdUntil === undefined) return;
  if (terms.purchaseHold !== 'starts' || typeof data.holdUntil !== 'string' || Number.isNaN(Date.parse(data.holdUntil)))
    throw invalidRequest();
}

function reservedEvent(wallet: WalletIdentity, data: ReserveTransfer['data'], toAddress: string, amountMlx: bigint, at: string) {
  const reserved: Extract<WalletEvent, { type: 'TransferReserved' }> = {
    type: 'TransferReserved',
    data: {
      walletId: wallet.walletId,
      transferId: data.transferId,
      fromAddress: wallet.address,
      toAddress,
      amountMlx: mlxToWire(amountMlx),
      feeMlx: mlxToWire(data.feeMlx),
      reservedAt: at,
    },
  };
  if (data.toWalletId !== undefined) reserved.data.toWalletId = data.toWalletId;
  if (data.idempotencyKey !== undefined) reserved.data.idempotencyKey = data.idempotencyKey;
  return reserved;
}

function decideReserve(state: WalletState, data: ReserveTransfer['data'], at: string, book: TransferTermsBook): WalletDecision {
  const { wallet, retry, toAddress, amountMlx, terms } = checkSend(state, data, book);
  if (retry) return retry;
  requireHoldUntil(data, terms);
  // A purchase's or a checkout's transfer is always settled at once with its own event
  // (executeTransfer); only a kind whose terms allow it (a payout, ADR 033) may wait for the
  // settlement worker, when it goes to an external address.
  if (terms.settlement !== 'atOnceOrLater') throw invalidRequest();
  // Only reservations that wait for a settlement job count: an atomic transfer holds nothing open.
  if (state.openReservationCount >= OPEN_RESERVATIONS_MAX) throw fail('RATE_LIMITED', 'errors:tooManyPendingTransfers');
  requireFunds(state, amountMlx + data.feeMlx);
  requireUnheldFunds(state, terms, amountMlx + data.feeMlx, new Date(at));
  const reserved = reservedEvent(wallet, data, toAddress, amountMlx, at);
  if (data.reference !== undefined) reserved.data.reference = data.reference;
  return { events: [reserved], transferId: data.transferId };
}

export interface TransferDecision {
  /** The payer's events (reservation and its post), empty when the send was already applied. */
  payerEvents: WalletEvent[];
  /** The payee's events (the credit), empty when the send was already applied. */
  payeeEvents: WalletEvent[];
  /** The transfer to report to the caller (the first one, on a retry). */
  transferId: string;
}

/**
 * A send between two Quern wallets, settled in one atomic append to both streams (ADR 019): the
 * payer's reservation and its post, and the payee's credit. Decided on both wallets' states, so
 * a payee that cannot take the credit is refused now instead of the send being voided later. A
 * retry (same idempotency key) answers with the first transfer, however it was settled.
 */
export function decideTransfer(
  command: ReserveTransfer,
  payer: WalletState,
  payee: WalletState,
  now: Date,
  book: TransferTermsBook,
): TransferDecision {
  const at = timestamp(now);
  const data = command.data;
  const { wallet, retry, toAddress, amountMlx, terms } = checkSend(payer, data, book);
  if (retry) return { payerEvents: [], payeeEvents: [], transferId: retry.transferId ?? data.transferId };
  const payeeWallet = payee.wallet;
  if (!payeeWallet || data.toWalletId === undefined || payeeWallet.walletId !== data.toWalletId)
    throw fail('NOT_FOUND', 'errors:unknownRecipient', { to: 'errors:unknownRecipient' });
  if (!CREDITABLE_KINDS.has(payeeWallet.kind))
    throw fail('VALIDATION', 'errors:recipientCannotReceive', { to: 'errors:recipientCannotReceive' });
  if (isWalletClosed(payee)) throw recipientClosed();
  // A checkout pays a merchant, a user: never a system account (its terms name the payee).
  if (!isParty(terms.payee, payeeWallet.kind, payeeWallet.walletId)) throw fail('FORBIDDEN', 'errors:forbidden');
  if (!isSameWallet(toAddress, payeeWallet.address)) throw invalidRequest();
  requireHoldUntil(data, terms);
  requireFunds(payer, amountMlx + data.feeMlx);
  requireUnheldFunds(payer, terms, amountMlx + data.feeMlx, now);
  const reserved = reservedEvent(wallet, data, toAddress, amountMlx, at);
  reserved.data.settledAtOnce = true;
  const payerState: WalletState = { ...payer, transfers: new Map([[data.transferId, toOutgoing(reserved.data)]]) };
  const posted = decidePost(payerState, { transferId: data.transferId }, at).events;
  const credited = decideCredit(
    payee,
    { transferId: data.transferId, fromWalletId: wallet.walletId, fromAddress: wallet.address, amountMlx },
    at,
  ).events;
  const credit = credited[0];
  if (credit?.type !== 'TransferCredited') throw conflict();
  credit.data.settledAtOnce = true;
  const post = posted[0];
  if (data.reference !== undefined && post?.type === 'TransferPosted') {
    reserved.data.reference = data.reference;
    post.data.reference = data.reference;
    credit.data.reference = data.reference;
    if (data.holdUntil !== undefined) credit.data.holdUntil = data.holdUntil;
  }
  return {
    payerEvents: withBalanceAfter(payer, [reserved, ...posted]),
    payeeEvents: withBalanceAfter(payee, credited),
    transferId: data.transferId,
  };
}

/** The reservation as decidePost sees it, without folding (decide never mutates a state). */
function toOutgoing(data: Extract<WalletEvent, { type: 'TransferReserved' }>['data']): OutgoingTransfer {
  const transfer: OutgoingTransfer = {
    direction: 'outgoing',
    transferId: data.transferId,
    status: 'reserved',
    toAddress: data.toAddress,
    amountMlx: mlxFromWire(data.amountMlx),
    feeMlx: mlxFromWire(data.feeMlx),
  };
  if (data.toWalletId !== undefined) transfer.toWalletId = data.toWalletId;
  if (data.reference !== undefined) transfer.reference = data.reference;
  return transfer;
}

function decideCredit(state: WalletState, data: CreditTransfer['data'], at: string): WalletDecision {
  const wallet = requireWallet(state, 'errors:unknownRecipient');
  if (!CREDITABLE_KINDS.has(wallet.kind)) throw fail('FORBIDDEN', 'errors:forbidden');
  const transferId = requireId(data.transferId, TRANSFER_ID_PATTERN);
  const fromWalletId = requireId(data.fromWalletId, WALLET_ID_PATTERN);
  const amountMlx = requireAmount(data.amountMlx);
  const fromAddress = requireAddress(data.fromAddress, wallet, 'from');
  if (fromWalletId === wallet.walletId) throw fail('VALIDATION', 'errors:cannotSendToSelf');
  const existing = state.transfers.get(transferId);
  if (existing) {
    const same = existing.direction === 'incoming' && existing.fromWalletId === fromWalletId && existing.amountMlx === amountMlx;
    if (same) return { events: [] };
    throw conflict();
  }
  // After the repeat check: a credit recorded before the close is answered, never refused, or
  // the settlement would void a reservation whose payee already holds the amount.
  if (isWalletClosed(state)) throw recipientClosed();
  return {
    events: [
      {
        type: 'TransferCredited',
        data: {
          walletId: wallet.walletId,
          transferId,
          fromWalletId,
          fromAddress,
          toAddress: wallet.address,
          amountMlx: mlxToWire(amountMlx),
          creditedAt: at,
        },
      },
    ],
  };
}

function requireOutgoing(state: WalletState, transferId: unknown): OutgoingTransfer {
  const transfer = state.transfers.get(requireId(transferId, TRANSFER_ID_PATTERN));
  if (transfer?.direction !== 'outgoing') throw fail('NOT_FOUND', 'errors:notFound');
  return transfer;
}

function decidePost(state: WalletState, data: PostTransfer['data'], at: string): WalletDecision {
  const wallet = requireWallet(state);
  const transfer = requireOutgoing(state, data.transferId);
  if (transfer.status === 'posted') return { events: [] };
  if (transfer.status === 'voided') throw fail('CONFLICT', 'errors:alreadySettled');
  const external = transfer.toWalletId === undefined;
  // An external send is settled by a millix transaction; an internal one never has one.
  if (external !== (data.networkTransactionHash !== undefined)) throw invalidRequest();
  const posted: Extract<WalletEvent, { type: 'TransferPosted' }> = {
    type: 'TransferPosted',
    data: {
      walletId: wallet.walletId,
      transferId: transfer.transferId,
      fromAddress: wallet.address,
      toAddress: transfer.toAddress,
      amountMlx: mlxToWire(transfer.amountMlx),
      feeMlx: mlxToWire(transfer.feeMlx),
      postedAt: at,
    },
  };
  if (transfer.toWalletId !== undefined) posted.data.toWalletId = transfer.toWalletId;
  // A payout's post names it (ADR 033): the webhooks and the history read it from this event alone.
  if (transfer.reference !== undefined) posted.data.reference = transfer.reference;
  if (data.networkTransactionHash !== undefined)
    posted.data.networkTransactionHash = requireId(data.networkTransactionHash, NETWORK_TRANSACTION_HASH_PATTERN);
  return { events: [posted] };
}

function decideVoid(state: WalletState, data: VoidTransfer['data'], at: string): WalletDecision {
  const wallet = requireWallet(state);
  const transfer = requireOutgoing(state, data.transferId);
  if (!transferVoidReasons.includes(data.reason)) throw invalidRequest();
  if (transfer.status === 'voided') return { events: [] };
  if (transfer.status === 'posted') throw fail('CONFLICT', 'errors:alreadySettled');
  const voided: Extract<WalletEvent, { type: 'TransferVoided' }> = {
    type: 'TransferVoided',
    data: {
      walletId: wallet.walletId,
      transferId: transfer.transferId,
      amountMlx: mlxToWire(transfer.amountMlx),
      feeMlx: mlxToWire(transfer.feeMlx),
      reason: data.reason,
      voidedAt: at,
    },
  };
  if (transfer.toWalletId !== undefined) voided.data.toWalletId = transfer.toWalletId;
  return { events: [voided] };
}

function decideReceiveDeposit(state: WalletState, data: ReceiveDeposit['data'], at: string): WalletDecision {
  const wallet = requireWallet(state);
  if (!DEPOSIT_KINDS.has(wallet.kind)) throw fail('FORBIDDEN', 'errors:forbidden');
  const depositId = requireId(data.depositId, DEPOSIT_ID_PATTERN);
  const networkTransactionHash = requireId(data.networkTransactionHash, NETWORK_TRANSACTION_HASH_PATTERN);
  const amountMlx = requireAmount(data.amountMlx);
  const fromAddress = requireAddress(data.fromAddress, wallet, 'from');
  const toAddress = data.toAddress === undefined ? wallet.address : requireAddress(data.toAddress, wallet, 'to');
  // Only an address of this millix wallet is paid into it: its own, or one derived from its key.
  if (!isSameWallet(toAddress, wallet.address)) throw fail('FORBIDDEN', 'errors:forbidden');
  const existing = state.deposits.get(depositId);
  if (existing) {
    if (existing.amountMlx === amountMlx && existing.networkTransactionHash === networkTransactionHash) return { events: [] };
    throw conflict();
  }
  const received = {
    walletId: wallet.walletId,
    depositId,
    networkTransactionHash,
    fromAddress,
    toAddress,
    amountMlx: mlxToWire(amountMlx),
    // The handler appends the deposit id's claim stream in the same append (ADR 020).
    claimed: true as const,
    receivedAt: at,
  };
  return { events: [{ type: 'DepositReceived', data: received }] };
}

function decideSettleDeposit(
  state: WalletState,
  depositId: unknown,
  outcome: 'confirmed' | 'rejected',
  at: string,
  reason?: unknown,
): WalletDecision {
  const wallet = requireWallet(state);
  const deposit = state.deposits.get(requireId(depositId, DEPOSIT_ID_PATTERN));
  if (!deposit) throw fail('NOT_FOUND', 'errors:notFound');
  if (deposit.status === outcome) return { events: [] };
  if (deposit.status !== 'received') throw fail('CONFLICT', 'errors:alreadySettled');
  const base = { walletId: wallet.walletId, depositId: deposit.depositId, amountMlx: mlxToWire(deposit.amountMlx) };
  // The address paid, as its receipt recorded it: an invoice's is read back from the settlement.
  const toAddress = deposit.toAddress ?? wallet.address;
  if (outcome === 'confirmed') {
    const display = { networkTransactionHash: deposit.networkTransactionHash, fromAddress: deposit.fromAddress, toAddress };
    return { events: [{ type: 'DepositConfirmed', data: { ...base, ...display, confirmedAt: at } }] };
  }
  const rejectReason = depositRejectReasons.find((candidate) => candidate === reason);
  if (rejectReason === undefined) throw invalidRequest();
  return { events: [{ type: 'DepositRejected', data: { ...base, toAddress, reason: rejectReason, rejectedAt: at } }] };
}

/**
 * Closes a user's wallet (ADR 042) when it is empty: nothing posted, held or pending and no
 * reservation open, so no MLX is lost with the account. Appended under the stream's expected
 * revision, so a credit or deposit that lands first makes the close decide again and refuse.
 */
function decideClose(state: WalletState, data: CloseWallet['data'], at: string): WalletDecision {
  const wallet = requireWallet(state);
  if (wallet.kind !== 'user') throw fail('FORBIDDEN', 'errors:forbidden');
  const reason = walletCloseReasons.find((candidate) => candidate === data.reason);
  if (reason === undefined) throw invalidRequest();
  if (isWalletClosed(state)) return { events: [] };
  if (!isWalletEmpty(state)) throw fail('CONFLICT', 'errors:accountNotEmpty');
  return { events: [{ type: 'WalletClosed', data: { walletId: wallet.walletId, reason, closedAt: at } }] };
}

/**
 * Decides one command against one wallet's state. `now` is the time the handler read from its
 * Clock; every event of the decision carries it.
 */
export function decide(command: WalletCommand, state: WalletState, now: Date, book: TransferTermsBook): WalletDecision {
  const decision = decideEvents(command, state, now, book);
  return { ...decision, events: withBalanceAfter(state, decision.events) };
}

function decideEvents(command: WalletCommand, state: WalletState, now: Date, book: TransferTermsBook): WalletDecision {
  const at = timestamp(now);
  switch (command.type) {
    case 'OpenWallet':
      return decideOpen(state, command.data, at);
    case 'MintSupply':
      return decideMint(state, command.data, at);
    case 'ReserveTransfer':
      return decideReserve(state, command.data, at, book);
    case 'CreditTransfer':
      return decideCredit(state, command.data, at);
    case 'PostTransfer':
      return decidePost(state, command.data, at);
    case 'VoidTransfer':
      return decideVoid(state, command.data, at);
    case 'ReceiveDeposit':
      return decideReceiveDeposit(state, command.data, at);
    case 'ConfirmDeposit':
      return decideSettleDeposit(state, command.data.depositId, 'confirmed', at);
    case 'RejectDeposit':
      return decideSettleDeposit(state, command.data.depositId, 'rejected', at, command.data.reason);
    case 'CloseWallet':
      return decideClose(state, command.data, at);
    default:
      return assertNever(command);
  }
}

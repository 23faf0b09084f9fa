/**
 * Folds a wallet stream into the state the decisions need.
 *
 * Ownership: evolve updates the maps of the state it is given and returns the next state, so a
 * stream of n events folds in O(n) rather than O(n^2) (copying a map per event would make a
 * wallet with a long history slow to load). Treat a state passed to evolve as consumed; fold from
 * initialWalletState() (or foldWallet) when you need an independent copy. decide never mutates.
 *
 * evolve records facts, it does not judge them: a recorded event already happened. An event that
 * a correct decider would never have produced (a second post of the same transfer, a credit of
 * an id already credited) is applied as literally as its data allows, and audit.ts reports it.
 */
import { assertNever } from '../shared/assert.js';
import type { MillixNetwork } from './address.js';
import { parseAddress } from './address.js';
import { nextBalance } from './balance.js';
import type { DepositRejectReason, TransferVoidReason, WalletEvent, WalletKind } from './events.js';
import { referenceIdOf, type TransferReference } from './transfer-reference.js';
import { mlxFromWire } from './money.js';
import { type TransferTermsBook, purchaseHoldEffectOf } from './transfer-terms.js';

/**
 * Idempotency keys remembered per wallet. A retry arriving after this many newer keyed sends
 * from the same wallet would be treated as a new send; clients retry within seconds, and the
 * bound keeps a long-lived wallet's state from growing with its whole history of keys.
 */
export const IDEMPOTENCY_KEYS_MAX = 1000;

/**
 * Settled transfers (posted or voided reservations, credits of atomic sends) kept in the state;
 * older ones are dropped first. Nothing in a decision needs them: a client's retry is found
 * through its idempotency key (the transfer a remembered key names is never dropped), a
 * settlement step repeated for a dropped reservation finds it missing and moves nothing, and an
 * atomic credit cannot repeat (the payer's expected revision guards it). Credits of two-phase
 * transfers (before ADR 019) are kept: their repeat is recognised only by the payee's state. The bound
 * is what makes a wallet's state (and its snapshot, ADR 020) small whatever its history.
 */
export const SETTLED_TRANSFERS_MAX = 1000;

export interface WalletIdentity {
  walletId: string;
  kind: WalletKind;
  address: string;
  network: MillixNetwork;
  ownerUserId?: string;
}

export type OutgoingTransferStatus = 'reserved' | 'posted' | 'voided';

export interface OutgoingTransfer {
  direction: 'outgoing';
  transferId: string;
  status: OutgoingTransferStatus;
  toAddress: string;
  toWalletId?: string;
  amountMlx: bigint;
  feeMlx: bigint;
  idempotencyKey?: string;
  voidReason?: TransferVoidReason;
  /** What the transfer is for (a payout waiting for the network repeats it on its post, ADR 033). */
  reference?: TransferReference;
}

export interface IncomingTransfer {
  direction: 'incoming';
  transferId: string;
  status: 'credited';
  fromWalletId: string;
  fromAddress: string;
  amountMlx: bigint;
  /** Credited in the payer's atomic append (ADR 019): may be forgotten once old (see SETTLED_TRANSFERS_MAX). */
  settledAtOnce?: true;
}

/**
 * MLX bought with PayPal that may not be sent or paid out yet (ADR 047): what the purchase
 * credited, less what its refunds and reversals took back, until `holdUntil`.
 */
export interface PurchaseHold {
  amountMlx: bigint;
  holdUntil: string;
}

export type DepositStatus = 'received' | 'confirmed' | 'rejected';

export interface DepositRecord {
  depositId: string;
  status: DepositStatus;
  networkTransactionHash: string;
  fromAddress: string;
  /** The address paid, when it is another address of this wallet than its own (an invoice's, issue 27). */
  toAddress?: string;
  amountMlx: bigint;
  rejectReason?: DepositRejectReason;
  /** Its id is claimed in the log (ADR 020): may be forgotten once settled. */
  claimed?: true;
}

export interface WalletState {
  /** Undefined until WalletOpened. */
  wallet: WalletIdentity | undefined;
  /** Settled balance: credits and confirmed deposits minus posted debits (amount + fee). */
  postedBalanceMlx: bigint;
  /** Holds: amount + fee of every reservation not yet posted or voided. */
  pendingDebitsMlx: bigint;
  /** Deposits seen on the network but not yet stable; not spendable. */
  pendingCreditsMlx: bigint;
  /** Genesis only: everything minted into this wallet. */
  mintedMlx: bigint;
  /** Reservations not yet posted or voided (bounded by the decider). */
  openReservationCount: number;
  /** Open reservations and the newest SETTLED_TRANSFERS_MAX settled transfers, by transfer id. */
  transfers: Map<string, OutgoingTransfer | IncomingTransfer>;
  /** Ids of the settled transfers kept in `transfers`, oldest first (the order they are dropped in). */
  settledTransferIds: Set<string>;
  /** Open deposits, unclaimed (older) ones, and the newest SETTLED_TRANSFERS_MAX settled claimed ones. */
  deposits: Map<string, DepositRecord>;
  /** Ids of the settled, claimed deposits kept in `deposits`, oldest first. */
  settledDepositIds: Set<string>;
  /** Idempotency key -> transfer id, the most recent IDEMPOTENCY_KEYS_MAX keys, oldest first. */
  idempotencyKeys: Map<string, string>;
  /** Events folded so far; the stream's expected revision for the next append is eventCount - 1. */
  eventCount: number;
  /** Set by WalletClosed (ADR 042): the wallet never sends again and takes no transfer credits. */
  closedAt?: string;
  /**
   * Purchases still held, by order id (ADR 047). Holds that ended before a later event's time are
   * dropped when that event is applied, so only the last PURCHASE_HOLD_HOURS of purchases stay.
   */
  purchaseHolds: Map<string, PurchaseHold>;
}

export function initialWalletState(): WalletState {
  return {
    wallet: undefined,
    postedBalanceMlx: 0n,
    pendingDebitsMlx: 0n,
    pendingCreditsMlx: 0n,
    mintedMlx: 0n,
    openReservationCount: 0,
    transfers: new Map(),
    settledTransferIds: new Set(),
    deposits: new Map(),
    settledDepositIds: new Set(),
    idempotencyKeys: new Map(),
    eventCount: 0,
    purchaseHolds: new Map(),
  };
}

/** Whether the wallet was closed (ADR 042). */
export const isWalletClosed = (state: WalletState): boolean => state.closedAt !== undefined;

/** Empty enough to close: nothing posted, held or pending, and no reservation open. */
export const isWalletEmpty = (state: WalletState): boolean =>
  state.postedBalanceMlx === 0n && state.pendingDebitsMlx === 0n && state.pendingCreditsMlx === 0n && state.openReservationCount === 0;

/** What the wallet can spend now: posted minus holds. The decider keeps it at or above zero. */
export const availableMlx = (state: WalletState): bigint => state.postedBalanceMlx - state.pendingDebitsMlx;

/**
 * The spec's Balance (the dashboard's Current and Pending, millix's stable and unstable).
 * stable = what can be spent now (posted - holds), so a send in flight lowers Current at once,
 * as spending an output does in millix; unstable = deposits not yet stable, which will add to
 * Current once confirmed. Both are never negative in a sound ledger.
 */
export function balanceOf(state: WalletState): { stableMlx: bigint; unstableMlx: bigint } {
  return { stableMlx: availableMlx(state), unstableMlx: state.pendingCreditsMlx };
}

const timeMs = (time: string | Date): number => (typeof time === 'string' ? Date.parse(time) : time.getTime());

/** Drops the holds that ended by `at` (an event's own time), keeping the state small. */
function dropEndedHolds(state: WalletState, at: string): void {
  const atMs = timeMs(at);
  if (Number.isNaN(atMs)) return;
  for (const [orderId, hold] of state.purchaseHolds) if (!(timeMs(hold.holdUntil) > atMs)) state.purchaseHolds.delete(orderId);
}

/** Takes `amountMlx` off the holds, the one ending last first (it would block longest). */
function spendHeld(state: WalletState, amountMlx: bigint): void {
  let left = amountMlx;
  const latestFirst = [...state.purchaseHolds].sort(([, a], [, b]) => timeMs(b.holdUntil) - timeMs(a.holdUntil));
  for (const [orderId, hold] of latestFirst) {
    if (left <= 0n) return;
    const taken = hold.amountMlx < left ? hold.amountMlx : left;
    left -= taken;
    if (hold.amountMlx - taken > 0n) state.purchaseHolds.set(orderId, { ...hold, amountMlx: hold.amountMlx - taken });
    else state.purchaseHolds.delete(orderId);
  }
}

/**
 * The MLX bought with PayPal that may not leave the wallet yet at `now` (ADR 047), and when the
 * last of it is free. It may still pay checkouts and subscriptions; sends and payouts may use
 * only what is available beyond it.
 */
export function heldPurchasedMlx(state: WalletState, now: Date): { heldMlx: bigint; holdUntil?: string } {
  const nowMs = now.getTime();
  let heldMlx = 0n;
  let holdUntil: string | undefined;
  for (const hold of state.purchaseHolds.values()) {
    if (!(timeMs(hold.holdUntil) > nowMs) || hold.amountMlx <= 0n) continue;
    heldMlx += hold.amountMlx;
    if (holdUntil === undefined || timeMs(hold.holdUntil) > timeMs(holdUntil)) holdUntil = hold.holdUntil;
  }
  return holdUntil === undefined ? { heldMlx } : { heldMlx, holdUntil };
}

function openWallet(state: WalletState, data: Extract<WalletEvent, { type: 'WalletOpened' }>['data']): WalletState {
  // A second WalletOpened is a corrupted log (the decider refuses it); the first one stands.
  if (state.wallet) return state;
  const parsed = parseAddress(data.address);
  const network: MillixNetwork = parsed.ok ? parsed.network : 'mainnet';
  const wallet: WalletIdentity = { walletId: data.walletId, kind: data.kind, address: data.address, network };
  if (data.ownerUserId !== undefined) wallet.ownerUserId = data.ownerUserId;
  return { ...state, wallet };
}

function reserve(
  state: WalletState,
  data: Extract<WalletEvent, { type: 'TransferReserved' }>['data'],
  book: TransferTermsBook,
): WalletState {
  if (state.transfers.has(data.transferId)) return state;
  const amountMlx = mlxFromWire(data.amountMlx);
  const feeMlx = mlxFromWire(data.feeMlx);
  const transfer: OutgoingTransfer = {
    direction: 'outgoing',
    transferId: data.transferId,
    status: 'reserved',
    toAddress: data.toAddress,
    amountMlx,
    feeMlx,
  };
  if (data.toWalletId !== undefined) transfer.toWalletId = data.toWalletId;
  if (data.reference !== undefined) transfer.reference = data.reference;
  if (data.idempotencyKey !== undefined) {
    transfer.idempotencyKey = data.idempotencyKey;
    state.idempotencyKeys.set(data.idempotencyKey, data.transferId);
    // Maps iterate in insertion order, so the first key is the oldest.
    while (state.idempotencyKeys.size > IDEMPOTENCY_KEYS_MAX) {
      const oldest = state.idempotencyKeys.keys().next().value;
      if (oldest === undefined) break;
      state.idempotencyKeys.delete(oldest);
    }
  }
  state.transfers.set(data.transferId, transfer);
  dropEndedHolds(state, data.reservedAt);
  // A refund or reversal takes back bought MLX: that much is no longer held.
  const reference = data.reference;
  const holdEffect = purchaseHoldEffectOf(book, reference);
  const heldOrderId = reference && referenceIdOf(reference, 'orderId');
  if (heldOrderId && holdEffect === 'returns') {
    const hold = state.purchaseHolds.get(heldOrderId);
    if (hold) {
      const left = hold.amountMlx - amountMlx;
      if (left > 0n) state.purchaseHolds.set(heldOrderId, { ...hold, amountMlx: left });
      else state.purchaseHolds.delete(heldOrderId);
    }
  }
  // Bought MLX may pay checkouts and subscriptions at once, so such a payment spends held MLX
  // first: otherwise MLX the wallet receives afterwards would stay blocked behind a hold whose
  // coins are already gone.
  if (holdEffect === 'spends') spendHeld(state, amountMlx + feeMlx);
  return { ...state, openReservationCount: state.openReservationCount + 1 };
}

/** Marks a transfer settled and drops the oldest settled ones past the bound (see SETTLED_TRANSFERS_MAX). */
function rememberSettled(state: WalletState, transferId: string): void {
  state.settledTransferIds.add(transferId);
  // Each pass drops one transfer or moves one key-protected transfer to the back; the keys are
  // bounded, so the loop is too.
  for (let passes = 0; state.settledTransferIds.size > SETTLED_TRANSFERS_MAX && passes < 2 * IDEMPOTENCY_KEYS_MAX + 2; passes++) {
    const oldest = state.settledTransferIds.values().next().value as string;
    state.settledTransferIds.delete(oldest);
    const transfer = state.transfers.get(oldest);
    const key = transfer?.direction === 'outgoing' ? transfer.idempotencyKey : undefined;
    if (key !== undefined && state.idempotencyKeys.get(key) === oldest) state.settledTransferIds.add(oldest);
    else state.transfers.delete(oldest);
  }
}

/** Releases the hold of a reservation that is settled (posted or voided) now. */
function closeReservation(
  state: WalletState,
  transferId: string,
  status: 'posted' | 'voided',
  voidReason?: TransferVoidReason,
): WalletState {
  const transfer = state.transfers.get(transferId);
  if (transfer?.direction !== 'outgoing' || transfer.status !== 'reserved') return state;
  const closed: OutgoingTransfer = { ...transfer, status };
  if (voidReason !== undefined) closed.voidReason = voidReason;
  state.transfers.set(transferId, closed);
  rememberSettled(state, transferId);
  return { ...state, openReservationCount: state.openReservationCount - 1 };
}

/** The hold an open reservation backs; zero when the transfer is not open (a corrupted log). */
function openHoldMlx(state: WalletState, transferId: string): bigint {
  const transfer = state.transfers.get(transferId);
  return transfer?.direction === 'outgoing' && transfer.status === 'reserved' ? transfer.amountMlx + transfer.feeMlx : 0n;
}

function credit(
  state: WalletState,
  data: Extract<WalletEvent, { type: 'TransferCredited' }>['data'],
  book: TransferTermsBook,
): WalletState {
  if (state.transfers.has(data.transferId)) return state;
  const incoming: IncomingTransfer = {
    direction: 'incoming',
    transferId: data.transferId,
    status: 'credited',
    fromWalletId: data.fromWalletId,
    fromAddress: data.fromAddress,
    amountMlx: mlxFromWire(data.amountMlx),
  };
  state.transfers.set(data.transferId, incoming);
  dropEndedHolds(state, data.creditedAt);
  const boughtOrderId =
    data.reference !== undefined && purchaseHoldEffectOf(book, data.reference) === 'starts'
      ? referenceIdOf(data.reference, 'orderId')
      : undefined;
  if (boughtOrderId && data.holdUntil !== undefined && timeMs(data.holdUntil) > timeMs(data.creditedAt))
    state.purchaseHolds.set(boughtOrderId, { amountMlx: incoming.amountMlx, holdUntil: data.holdUntil });
  // Only a credit of an atomic send may be forgotten: a two-phase credit's repeat (a settlement job
  // re-run while the payer's reservation is still open) is recognised by the payee's state alone.
  if (data.settledAtOnce === true) {
    incoming.settledAtOnce = true;
    rememberSettled(state, data.transferId);
  }
  return state;
}

function settleDeposit(
  state: WalletState,
  depositId: string,
  status: 'confirmed' | 'rejected',
  rejectReason?: DepositRejectReason,
): WalletState {
  const deposit = state.deposits.get(depositId);
  if (deposit?.status !== 'received') return state;
  const settled: DepositRecord = { ...deposit, status };
  if (rejectReason !== undefined) settled.rejectReason = rejectReason;
  state.deposits.set(depositId, settled);
  // A claimed deposit id stays idempotent through its claim stream; the record can go once old.
  if (deposit.claimed === true) {
    state.settledDepositIds.add(depositId);
    while (state.settledDepositIds.size > SETTLED_TRANSFERS_MAX) {
      const oldest = state.settledDepositIds.values().next().value as string;
      state.settledDepositIds.delete(oldest);
      state.deposits.delete(oldest);
    }
  }
  return state;
}

/** Everything but the balances: identity, transfers, deposits, keys, counts. */
function applyRecords(state: WalletState, event: WalletEvent, book: TransferTermsBook): WalletState {
  switch (event.type) {
    case 'WalletOpened':
      return openWallet(state, event.data);
    case 'SupplyMinted':
      return { ...state, mintedMlx: state.mintedMlx + mlxFromWire(event.data.amountMlx) };
    case 'TransferReserved':
      return reserve(state, event.data, book);
    case 'TransferCredited':
      return credit(state, event.data, book);
    case 'TransferPosted':
      return closeReservation(state, event.data.transferId, 'posted');
    case 'TransferVoided':
      return closeReservation(state, event.data.transferId, 'voided', event.data.reason);
    case 'DepositReceived': {
      const d = event.data;
      const record: DepositRecord = {
        depositId: d.depositId,
        status: 'received',
        networkTransactionHash: d.networkTransactionHash,
        fromAddress: d.fromAddress,
        amountMlx: mlxFromWire(d.amountMlx),
      };
      if (d.claimed === true) record.claimed = true;
      if (state.wallet !== undefined && d.toAddress !== state.wallet.address) record.toAddress = d.toAddress;
      state.deposits.set(d.depositId, record);
      return state;
    }
    case 'DepositConfirmed':
      return settleDeposit(state, event.data.depositId, 'confirmed');
    case 'DepositRejected':
      return settleDeposit(state, event.data.depositId, 'rejected', event.data.reason);
    case 'WalletClosed':
      // A second WalletClosed is a corrupted log (the decider decides nothing); the first one stands.
      return state.closedAt === undefined ? { ...state, closedAt: event.data.closedAt } : state;
    default:
      return assertNever(event);
  }
}

/**
 * Whether the event repeats one already applied (a second reservation, credit or sighting of the
 * same id), which evolve applies as nothing; and what a settling event releases: the hold or
 * pending credit actually open, so a repeated post releases nothing twice.
 */
function effectOf(state: WalletState, event: WalletEvent): { repeated: boolean; releasedMlx?: bigint } {
  switch (event.type) {
    case 'TransferReserved':
    case 'TransferCredited':
      return { repeated: state.transfers.has(event.data.transferId) };
    case 'DepositReceived':
      return { repeated: state.deposits.has(event.data.depositId) };
    case 'TransferPosted':
    case 'TransferVoided':
      return { repeated: false, releasedMlx: openHoldMlx(state, event.data.transferId) };
    case 'DepositConfirmed':
    case 'DepositRejected': {
      const deposit = state.deposits.get(event.data.depositId);
      return { repeated: false, releasedMlx: deposit?.status === 'received' ? deposit.amountMlx : 0n };
    }
    default:
      return { repeated: false };
  }
}

function applyEvent(state: WalletState, event: WalletEvent, book: TransferTermsBook): WalletState {
  const { repeated, releasedMlx } = effectOf(state, event);
  if (repeated) return state;
  const balance = nextBalance(
    { postedMlx: state.postedBalanceMlx, heldMlx: state.pendingDebitsMlx, pendingCreditMlx: state.pendingCreditsMlx },
    event,
    releasedMlx,
  );
  const next = applyRecords(state, event, book);
  return { ...next, postedBalanceMlx: balance.postedMlx, pendingDebitsMlx: balance.heldMlx, pendingCreditsMlx: balance.pendingCreditMlx };
}

/** The next state; `book` gives each reference kind's effect on bought MLX's hold (ADR 077). */
export function evolve(state: WalletState, event: WalletEvent, book: TransferTermsBook): WalletState {
  const next = applyEvent(state, event, book);
  return { ...next, eventCount: state.eventCount + 1 };
}

/** A fresh state from a whole stream. */
export function foldWallet(events: Iterable<WalletEvent>, book: TransferTermsBook): WalletState {
  let state = initialWalletState();
  for (const event of events) state = evolve(state, event, book);
  return state;
}

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
import type { DepositRejectReason, TransferVoidReason, WalletEvent, WalletKind } from './events.js';
import { mlxFromWire } from './money.js';

/**
 * Idempotency keys remembered per wallet. A retry arriving after this many newer keyed sends
 * from the same wallet would be treated as a new send; clients retry within seconds, and the
 * bound keeps a long-lived wallet's state from growing with its whole history of keys.
 */
export const IDEMPOTENCY_KEYS_MAX = 1000;

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
}

export interface IncomingTransfer {
  direction: 'incoming';
  transferId: string;
  status: 'credited';
  fromWalletId: string;
  fromAddress: string;
  amountMlx: bigint;
}

export type DepositStatus = 'received' | 'confirmed' | 'rejected';

export interface DepositRecord {
  depositId: string;
  status: DepositStatus;
  networkTransactionHash: string;
  fromAddress: string;
  amountMlx: bigint;
  rejectReason?: DepositRejectReason;
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
  /** Every transfer this wallet took part in, by transfer id (see the ADR on growth). */
  transfers: Map<string, OutgoingTransfer | IncomingTransfer>;
  deposits: Map<string, DepositRecord>;
  /** Idempotency key -> transfer id, the most recent IDEMPOTENCY_KEYS_MAX keys, oldest first. */
  idempotencyKeys: Map<string, string>;
  /** Events folded so far; the stream's expected revision for the next append is eventCount - 1. */
  eventCount: number;
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
    deposits: new Map(),
    idempotencyKeys: new Map(),
    eventCount: 0,
  };
}

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

function openWallet(state: WalletState, data: Extract<WalletEvent, { type: 'WalletOpened' }>['data']): WalletState {
  // A second WalletOpened is a corrupted log (the decider refuses it); the first one stands.
  if (state.wallet) return state;
  const parsed = parseAddress(data.address);
  const network: MillixNetwork = parsed.ok ? parsed.network : 'mainnet';
  const wallet: WalletIdentity = { walletId: data.walletId, kind: data.kind, address: data.address, network };
  if (data.ownerUserId !== undefined) wallet.ownerUserId = data.ownerUserId;
  return { ...state, wallet };
}

function reserve(state: WalletState, data: Extract<WalletEvent, { type: 'TransferReserved' }>['data']): WalletState {
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
  return {
    ...state,
    pendingDebitsMlx: state.pendingDebitsMlx + amountMlx + feeMlx,
    openReservationCount: state.openReservationCount + 1,
  };
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
  return {
    ...state,
    pendingDebitsMlx: state.pendingDebitsMlx - transfer.amountMlx - transfer.feeMlx,
    openReservationCount: state.openReservationCount - 1,
  };
}

function credit(state: WalletState, data: Extract<WalletEvent, { type: 'TransferCredited' }>['data']): WalletState {
  if (state.transfers.has(data.transferId)) return state;
  const amountMlx = mlxFromWire(data.amountMlx);
  state.transfers.set(data.transferId, {
    direction: 'incoming',
    transferId: data.transferId,
    status: 'credited',
    fromWalletId: data.fromWalletId,
    fromAddress: data.fromAddress,
    amountMlx,
  });
  return { ...state, postedBalanceMlx: state.postedBalanceMlx + amountMlx };
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
  return { ...state, pendingCreditsMlx: state.pendingCreditsMlx - deposit.amountMlx };
}

function applyEvent(state: WalletState, event: WalletEvent): WalletState {
  switch (event.type) {
    case 'WalletOpened':
      return openWallet(state, event.data);
    case 'SupplyMinted': {
      const amountMlx = mlxFromWire(event.data.amountMlx);
      return { ...state, postedBalanceMlx: state.postedBalanceMlx + amountMlx, mintedMlx: state.mintedMlx + amountMlx };
    }
    case 'TransferReserved':
      return reserve(state, event.data);
    case 'TransferCredited':
      return credit(state, event.data);
    case 'TransferPosted': {
      // The debit is the fact the event states; the hold released is the one reserved.
      const debitMlx = mlxFromWire(event.data.amountMlx) + mlxFromWire(event.data.feeMlx);
      const next = closeReservation(state, event.data.transferId, 'posted');
      return { ...next, postedBalanceMlx: next.postedBalanceMlx - debitMlx };
    }
    case 'TransferVoided':
      return closeReservation(state, event.data.transferId, 'voided', event.data.reason);
    case 'DepositReceived': {
      const d = event.data;
      if (state.deposits.has(d.depositId)) return state;
      const amountMlx = mlxFromWire(d.amountMlx);
      state.deposits.set(d.depositId, {
        depositId: d.depositId,
        status: 'received',
        networkTransactionHash: d.networkTransactionHash,
        fromAddress: d.fromAddress,
        amountMlx,
      });
      return { ...state, pendingCreditsMlx: state.pendingCreditsMlx + amountMlx };
    }
    case 'DepositConfirmed': {
      // As with TransferPosted: the credit is the fact the event states; the pending part released is the one received.
      const next = settleDeposit(state, event.data.depositId, 'confirmed');
      return { ...next, postedBalanceMlx: next.postedBalanceMlx + mlxFromWire(event.data.amountMlx) };
    }
    case 'DepositRejected':
      return settleDeposit(state, event.data.depositId, 'rejected', event.data.reason);
    default:
      return assertNever(event);
  }
}

export function evolve(state: WalletState, event: WalletEvent): WalletState {
  const next = applyEvent(state, event);
  return { ...next, eventCount: state.eventCount + 1 };
}

/** A fresh state from a whole stream. */
export function foldWallet(events: Iterable<WalletEvent>): WalletState {
  let state = initialWalletState();
  for (const event of events) state = evolve(state, event);
  return state;
}

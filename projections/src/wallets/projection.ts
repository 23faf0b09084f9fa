/**
 * The wallet read models: per wallet a hash (identity and balances), a sorted set of completed
 * transactions (score = log position) and a hash of pending ones; plus address -> wallet id.
 *
 * Every write is computed from the event alone: balances come from the event's `balanceAfter`
 * (stamped by the decider), and settlement events repeat the addresses and hash of what they
 * settle. Writes are HSET/HSETNX/HDEL/ZADD, whose effect does not depend on what they overwrite,
 * so a replay in log order always ends with the same keys and values.
 *
 * A send between two Quern wallets shows as pending on both dashboards: the reservation (payer's
 * stream) writes a pending debit for the payer and a pending credit for the payee; the payee's
 * TransferCredited and the payer's TransferPosted each move their side into the history, and a
 * TransferVoided removes both pending items.
 *
 * A closed wallet (ADR 042) keeps its hash, balances and history; `closed_at` records when it closed.
 *
 * A purchase, refund or reversal (ADR 025) repeats its `reference` on all three of its transfer
 * events, so every row of it, pending or completed and on both sides, stores it as `purpose`.
 */
import { assertNever, type RecordedEvent } from '@quern/core';
import { isWalletEventType, toWalletEvent, type BalanceSnapshot, type TransferReference, type WalletEvent } from '@quern/core/wallet';
import { isCheckoutEventType, toCheckoutEvent } from '@quern/core/checkout';
import { toKnownTransferReference } from '@quern/core/transfer-references';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import type { StoredCompletedTransaction, StoredPendingTransaction } from './items.js';
import {
  CHECKOUT_REFERENCE_KEY,
  CHECKOUT_FIRST_ITEM_KEY,
  PENDING_SETTLEMENTS_KEY,
  WALLET_ID_BY_ADDRESS_KEY,
  walletHistoryKey,
  walletKey,
  walletPendingKey,
} from './keys.js';
import { type TransactionPurpose, toTransactionPurpose } from '@quern/core/history';

type DataOf<T extends WalletEvent['type']> = Extract<WalletEvent, { type: T }>['data'];

/** Refuses a balance-changing event without its balance: the read model would show a wrong one. */
function balanceOf(data: { balanceAfter?: BalanceSnapshot }, event: RecordedEvent): BalanceSnapshot {
  if (!data.balanceAfter) throw new Error(`${event.type} at position ${event.position} has no balanceAfter`);
  return data.balanceAfter;
}

/** The history's score. Positions stay far below 2^53; one above it would lose its order silently. */
function scoreOf(event: RecordedEvent): number {
  if (event.position > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`Position ${event.position} is too large for a history score`);
  return Number(event.position);
}

/**
 * A transfer's purpose as a row field, spread in after the amounts: nothing at all for a plain send,
 * so its stored JSON (a sorted-set member) is byte for byte what it was before purposes existed.
 */
function purposeOf(reference: TransferReference | undefined): { purpose?: TransactionPurpose } {
  if (reference === undefined) return {};
  // The wallet reads a reference by its shape; its kind and fields are checked here, against the
  // kinds the capabilities own, and a reference none of them has is a corrupted log, refused.
  const known = toKnownTransferReference(reference);
  if (!known) throw new Error(`A transfer reference of kind ${reference.kind} has the fields of no known kind`);
  return { purpose: toTransactionPurpose(known) };
}

function setBalance(tx: ChainableCommander, walletId: string, balance: BalanceSnapshot): void {
  tx.hset(walletKey(walletId), { posted: balance.postedMlx, held: balance.heldMlx, pending_credit: balance.pendingCreditMlx });
}

function addCompleted(tx: ChainableCommander, walletId: string, event: RecordedEvent, item: StoredCompletedTransaction): void {
  tx.zadd(walletHistoryKey(walletId), scoreOf(event), JSON.stringify(item));
}

function addPending(tx: ChainableCommander, walletId: string, id: string, item: StoredPendingTransaction): void {
  tx.hset(walletPendingKey(walletId), id, JSON.stringify(item));
}

/** The first WalletOpened stands (as in evolve): HSETNX, so a duplicate cannot reset anything. */
function opened(tx: ChainableCommander, data: DataOf<'WalletOpened'>): void {
  const key = walletKey(data.walletId);
  const fields: [string, string][] = [
    ['wallet_id', data.walletId],
    ['kind', data.kind],
    ['address', data.address],
    ['posted', '0'],
    ['held', '0'],
    ['pending_credit', '0'],
  ];
  if (data.ownerUserId !== undefined) fields.push(['owner_user_id', data.ownerUserId]);
  for (const [field, value] of fields) tx.hsetnx(key, field, value);
  tx.hsetnx(WALLET_ID_BY_ADDRESS_KEY, data.address, data.walletId);
}

function minted(tx: ChainableCommander, data: DataOf<'SupplyMinted'>, event: RecordedEvent): void {
  const balance = balanceOf(data, event);
  setBalance(tx, data.walletId, balance);
  // Minting has no transfer id or millix transaction; the event's own id names it, stably across rebuilds.
  addCompleted(tx, data.walletId, event, {
    transaction_hash: event.id,
    transaction_type: 'credit',
    from_address: '',
    to_address: data.toAddress ?? '',
    amount: data.amountMlx,
    balance: balance.postedMlx,
    transaction_date: data.mintedAt,
    to_wallet_id: data.walletId,
  });
}

function reserved(tx: ChainableCommander, data: DataOf<'TransferReserved'>, event: RecordedEvent): void {
  setBalance(tx, data.walletId, balanceOf(data, event));
  const common = {
    transaction_hash: data.transferId,
    from_address: data.fromAddress,
    to_address: data.toAddress,
    amount: data.amountMlx,
  };
  const purpose = purposeOf(data.reference);
  const position = event.position.toString();
  tx.hset(PENDING_SETTLEMENTS_KEY, data.transferId, data.amountMlx);
  addPending(tx, data.walletId, data.transferId, {
    ...common,
    transaction_type: 'debit',
    fee: data.feeMlx,
    ...purpose,
    create_date: data.reservedAt,
    from_wallet_id: data.walletId,
    to_wallet_id: data.toWalletId,
    position,
  });
  if (data.toWalletId === undefined) return;
  addPending(tx, data.toWalletId, data.transferId, {
    ...common,
    transaction_type: 'credit',
    ...purpose,
    create_date: data.reservedAt,
    from_wallet_id: data.walletId,
    to_wallet_id: data.toWalletId,
    position,
  });
}

function credited(tx: ChainableCommander, data: DataOf<'TransferCredited'>, event: RecordedEvent): void {
  const balance = balanceOf(data, event);
  setBalance(tx, data.walletId, balance);
  tx.hdel(walletPendingKey(data.walletId), data.transferId);
  addCompleted(tx, data.walletId, event, {
    transaction_hash: data.transferId,
    transaction_type: 'credit',
    from_address: data.fromAddress,
    to_address: data.toAddress,
    amount: data.amountMlx,
    ...purposeOf(data.reference),
    balance: balance.postedMlx,
    transaction_date: data.creditedAt,
    from_wallet_id: data.fromWalletId,
    to_wallet_id: data.walletId,
  });
}

function posted(tx: ChainableCommander, data: DataOf<'TransferPosted'>, event: RecordedEvent): void {
  const balance = balanceOf(data, event);
  setBalance(tx, data.walletId, balance);
  tx.hdel(walletPendingKey(data.walletId), data.transferId);
  tx.hdel(PENDING_SETTLEMENTS_KEY, data.transferId);
  addCompleted(tx, data.walletId, event, {
    transaction_hash: data.networkTransactionHash ?? data.transferId,
    transaction_type: 'debit',
    // Events recorded before fromAddress was added show no sender address rather than fail.
    from_address: data.fromAddress ?? '',
    to_address: data.toAddress,
    amount: data.amountMlx,
    fee: data.feeMlx,
    ...purposeOf(data.reference),
    balance: balance.postedMlx,
    transaction_date: data.postedAt,
    from_wallet_id: data.walletId,
    to_wallet_id: data.toWalletId,
  });
}

function voided(tx: ChainableCommander, data: DataOf<'TransferVoided'>, event: RecordedEvent): void {
  setBalance(tx, data.walletId, balanceOf(data, event));
  tx.hdel(walletPendingKey(data.walletId), data.transferId);
  tx.hdel(PENDING_SETTLEMENTS_KEY, data.transferId);
  if (data.toWalletId !== undefined) tx.hdel(walletPendingKey(data.toWalletId), data.transferId);
}

function depositReceived(tx: ChainableCommander, data: DataOf<'DepositReceived'>, event: RecordedEvent): void {
  setBalance(tx, data.walletId, balanceOf(data, event));
  addPending(tx, data.walletId, data.depositId, {
    transaction_hash: data.networkTransactionHash,
    transaction_type: 'credit',
    from_address: data.fromAddress,
    to_address: data.toAddress,
    amount: data.amountMlx,
    create_date: data.receivedAt,
    to_wallet_id: data.walletId,
    position: event.position.toString(),
  });
}

function depositConfirmed(tx: ChainableCommander, data: DataOf<'DepositConfirmed'>, event: RecordedEvent): void {
  const balance = balanceOf(data, event);
  setBalance(tx, data.walletId, balance);
  tx.hdel(walletPendingKey(data.walletId), data.depositId);
  addCompleted(tx, data.walletId, event, {
    // A deposit id is "<hash>:<output>"; events recorded before the hash was repeated fall back to it.
    transaction_hash: data.networkTransactionHash ?? data.depositId.split(':')[0] ?? data.depositId,
    transaction_type: 'credit',
    from_address: data.fromAddress ?? '',
    to_address: data.toAddress ?? '',
    amount: data.amountMlx,
    balance: balance.postedMlx,
    transaction_date: data.confirmedAt,
    to_wallet_id: data.walletId,
  });
}

function depositRejected(tx: ChainableCommander, data: DataOf<'DepositRejected'>, event: RecordedEvent): void {
  setBalance(tx, data.walletId, balanceOf(data, event));
  tx.hdel(walletPendingKey(data.walletId), data.depositId);
}

/** The wallet was closed (ADR 042): its hash records when. HSETNX: the first close stands, as in evolve. */
function closed(tx: ChainableCommander, data: DataOf<'WalletClosed'>): void {
  tx.hsetnx(walletKey(data.walletId), 'closed_at', data.closedAt);
}

/** A checkout's shop reference and first item, for its rows (HSET of a value the event fixes: a replay writes the same). */
function checkoutPaid(tx: ChainableCommander, event: RecordedEvent): void {
  const paid = toCheckoutEvent(event);
  if (!paid) throw new Error(`${event.type} at position ${event.position} does not have the shape of a checkout event`);
  if (paid.data.reference !== undefined) tx.hset(CHECKOUT_REFERENCE_KEY, paid.data.orderId, paid.data.reference);
  if (paid.data.firstItem !== undefined) tx.hset(CHECKOUT_FIRST_ITEM_KEY, paid.data.orderId, paid.data.firstItem);
}

function applyWalletEvent(tx: ChainableCommander, wallet: WalletEvent, event: RecordedEvent): void {
  switch (wallet.type) {
    case 'WalletOpened':
      opened(tx, wallet.data);
      break;
    case 'SupplyMinted':
      minted(tx, wallet.data, event);
      break;
    case 'TransferReserved':
      reserved(tx, wallet.data, event);
      break;
    case 'TransferCredited':
      credited(tx, wallet.data, event);
      break;
    case 'TransferPosted':
      posted(tx, wallet.data, event);
      break;
    case 'TransferVoided':
      voided(tx, wallet.data, event);
      break;
    case 'DepositReceived':
      depositReceived(tx, wallet.data, event);
      break;
    case 'DepositConfirmed':
      depositConfirmed(tx, wallet.data, event);
      break;
    case 'DepositRejected':
      depositRejected(tx, wallet.data, event);
      break;
    case 'WalletClosed':
      closed(tx, wallet.data);
      break;
    default:
      assertNever(wallet);
  }
}

export const walletsProjection: Projection = {
  name: 'wallets',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (isCheckoutEventType(event.type)) {
      checkoutPaid(tx, event);
      return;
    }
    if (!isWalletEventType(event.type)) return;
    const wallet = toWalletEvent(event);
    // A wallet event that does not parse is a corrupted log: refuse it (the runner retries and
    // reports it) rather than write half a row.
    if (!wallet) throw new Error(`${event.type} at position ${event.position} does not have the shape of a wallet event`);
    applyWalletEvent(tx, wallet, event);
  },
};

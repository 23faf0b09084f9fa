/**
 * Reads of the wallet read models, in the shapes of the wallet contracts (core/src/wallet/
 * contracts.ts). Usernames are resolved at read time from the users read model, so a history row
 * never has to be rewritten; each query costs a bounded number of round trips whatever the size
 * of the wallet's history.
 */
import { AppError } from '@quern/core';
import { SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import type { Redis } from 'ioredis';
import { userKey } from '../users/keys.js';
import type { StoredCompletedTransaction, StoredPendingTransaction, StoredTransaction } from './items.js';
import {
  CHECKOUT_REFERENCE_KEY,
  CHECKOUT_FIRST_ITEM_KEY,
  PENDING_SETTLEMENTS_KEY,
  WALLET_ID_BY_ADDRESS_KEY,
  walletHistoryKey,
  walletKey,
  walletPendingKey,
} from './keys.js';
import {
  PENDING_TRANSACTIONS_MAX,
  TRANSACTIONS_PAGE_MAX,
  TRANSACTIONS_PAGE_SIZE,
  type CompletedTransaction,
  type HistoryFilter,
  hasHistoryFilter,
  matchesHistoryFilter,
  type PendingTransaction,
  type TransactionPurpose,
  type TransactionsPage,
} from '@quern/core/history';

/**
 * The dashboard's balance: stable (Current) = posted − held, what the wallet can spend now;
 * unstable (Pending) = deposits not yet confirmed. Null when the wallet is not projected (yet).
 */
export async function getWalletBalance(redis: Redis, walletId: string): Promise<{ stable: string; unstable: string } | null> {
  const [posted, held, pendingCredit] = await redis.hmget(walletKey(walletId), 'posted', 'held', 'pending_credit');
  if (posted == null || held == null || pendingCredit == null) return null;
  return { stable: (BigInt(posted) - BigInt(held)).toString(), unstable: BigInt(pendingCredit).toString() };
}

export async function getWalletAddress(redis: Redis, walletId: string): Promise<string | null> {
  return redis.hget(walletKey(walletId), 'address');
}

export async function findWalletIdByAddress(redis: Redis, address: string): Promise<string | null> {
  return address.length === 0 ? null : redis.hget(WALLET_ID_BY_ADDRESS_KEY, address);
}

/**
 * What the pending list adds up to (ADR 062): incoming = the amounts of the pending credits
 * (unconfirmed deposits and sends from other Quern wallets on their way in), outgoing = the
 * amounts plus fees of the pending debits. Read from the same hash as the pending list, so the
 * dashboard's Pending figure and the rows under it cannot disagree.
 */
export async function getPendingTotals(redis: Redis, walletId: string): Promise<{ incoming: string; outgoing: string }> {
  let incoming = 0n;
  let outgoing = 0n;
  for (const value of Object.values(await redis.hgetall(walletPendingKey(walletId)))) {
    const item = JSON.parse(value) as StoredPendingTransaction;
    if (item.transaction_type === 'credit') incoming += BigInt(item.amount);
    else outgoing += BigInt(item.amount) + BigInt(item.fee ?? '0');
  }
  return { incoming: incoming.toString(), outgoing: outgoing.toString() };
}

/** What a transaction hash looks like (millix ids, transfer ids, event ids): no glob or JSON specials. */
export const TRANSACTION_HASH_PATTERN = /^[A-Za-z0-9_:-]{1,128}$/;

const invalidRequest = () => new AppError('VALIDATION', 'errors:invalidRequest');

/**
 * One page of completed transactions, newest first. Pages are 0-based; a page past the end is an
 * empty list with the true total. ZREVRANGE by index costs O(log n + limit) for any page, and
 * the range and the count are read in one MULTI so they describe the same moment.
 */
export async function getTransactionsPage(
  redis: Redis,
  walletId: string,
  page: number,
  limit = TRANSACTIONS_PAGE_SIZE,
  filter?: HistoryFilter,
): Promise<TransactionsPage> {
  if (!Number.isSafeInteger(page) || page < 0 || page > TRANSACTIONS_PAGE_MAX) throw invalidRequest();
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > TRANSACTIONS_PAGE_SIZE) throw invalidRequest();
  if (hasHistoryFilter(filter)) return getFilteredTransactionsPage(redis, walletId, page, limit, filter);
  const key = walletHistoryKey(walletId);
  const start = page * limit;
  const replies = await redis
    .multi()
    .zrevrange(key, start, start + limit - 1)
    .zcard(key)
    .exec();
  const members = resultOf<string[]>(replies, 0);
  const total = resultOf<number>(replies, 1);
  const stored = members.map((member) => JSON.parse(member) as StoredCompletedTransaction);
  const usernames = await resolveUsernames(redis, stored);
  const references = await resolveCheckoutReferences(redis, stored);
  const transactions = stored.map(
    (item): CompletedTransaction => ({
      ...publicFields(item, usernames, references),
      balance: item.balance,
      transaction_date: item.transaction_date,
    }),
  );
  return { transactions, total, page, limit };
}

/**
 * History rows one filtered read scans at most, newest first. The score is the log position, not
 * a time, so dates cannot be a ZRANGEBYSCORE; a filter is matched row by row. 20,000 rows is years
 * of a busy wallet and a few tens of milliseconds of Redis work; past it the answer says
 * `scan_limited` and the older rows are not searched.
 */
export const HISTORY_FILTER_SCAN_MAX = 20_000;
/** Rows read per ZREVRANGE while filtering. */
export const HISTORY_FILTER_CHUNK = 500;

/**
 * One page of the rows matching the filter, newest first, with `total` = the number of matches
 * found, so the dashboard's pagination counts matches. Usernames are resolved per chunk (one
 * pipelined HGET per distinct wallet id) so a username filter matches what the rows show.
 */
async function getFilteredTransactionsPage(
  redis: Redis,
  walletId: string,
  page: number,
  limit: number,
  filter: HistoryFilter,
): Promise<TransactionsPage> {
  const key = walletHistoryKey(walletId);
  const start = page * limit;
  const wanted: StoredCompletedTransaction[] = [];
  let total = 0;
  let scanned = 0;
  let scanLimited = false;
  for (;;) {
    if (scanned >= HISTORY_FILTER_SCAN_MAX) {
      scanLimited = (await redis.zcard(key)) > scanned;
      break;
    }
    const count = Math.min(HISTORY_FILTER_CHUNK, HISTORY_FILTER_SCAN_MAX - scanned);
    const members = await redis.zrevrange(key, scanned, scanned + count - 1);
    scanned += members.length;
    const stored = members.map((member) => JSON.parse(member) as StoredCompletedTransaction);
    const usernames = filter.counterparty === undefined ? new Map<string, string>() : await resolveUsernames(redis, stored);
    for (const item of stored) {
      const row = {
        ...item,
        from_username: item.from_wallet_id === undefined ? undefined : usernames.get(item.from_wallet_id),
        to_username: item.to_wallet_id === undefined ? undefined : usernames.get(item.to_wallet_id),
      };
      if (!matchesHistoryFilter(row, filter)) continue;
      if (total >= start && total < start + limit) wanted.push(item);
      total += 1;
    }
    if (members.length < count) break;
  }
  const pageUsernames = await resolveUsernames(redis, wanted);
  const references = await resolveCheckoutReferences(redis, wanted);
  const transactions = wanted.map(
    (item): CompletedTransaction => ({
      ...publicFields(item, pageUsernames, references),
      balance: item.balance,
      transaction_date: item.transaction_date,
    }),
  );
  return { transactions, total, page, limit, ...(scanLimited ? { scan_limited: true } : {}) };
}

/** Pending items (reservations, incoming transfers, unconfirmed deposits), newest first, bounded. */
export async function getPendingTransactions(redis: Redis, walletId: string): Promise<PendingTransaction[]> {
  // The hash stays small: at most OPEN_RESERVATIONS_MAX outgoing holds, plus what is in flight
  // towards the wallet (settlement takes seconds), so reading it whole is cheap.
  const values = Object.values(await redis.hgetall(walletPendingKey(walletId)));
  const stored = values
    .map((value) => JSON.parse(value) as StoredPendingTransaction)
    .sort((a, b) => compareDescending(BigInt(a.position), BigInt(b.position)))
    .slice(0, PENDING_TRANSACTIONS_MAX);
  const usernames = await resolveUsernames(redis, stored);
  const references = await resolveCheckoutReferences(redis, stored);
  return stored.map((item): PendingTransaction => ({ ...publicFields(item, usernames, references), create_date: item.create_date }));
}

const compareDescending = (a: bigint, b: bigint): number => (a === b ? 0 : a > b ? -1 : 1);

function resultOf<T>(replies: [Error | null, unknown][] | null, index: number): T {
  if (replies === null) throw new Error('The read of the transaction history was aborted');
  const [error, value] = replies[index] ?? [new Error('Missing reply'), undefined];
  if (error) throw error;
  return value as T;
}

/**
 * The spec's fields, in its order, without the internal ones; usernames where the wallet is a
 * user's; then a purchase's purpose, when the row has one.
 */
function publicFields(item: StoredTransaction, usernames: ReadonlyMap<string, string>, references: ReadonlyMap<string, CheckoutNames>) {
  const fromUser = item.from_wallet_id === undefined ? undefined : usernames.get(item.from_wallet_id);
  const toUser = item.to_wallet_id === undefined ? undefined : usernames.get(item.to_wallet_id);
  return {
    transaction_hash: item.transaction_hash,
    transaction_type: item.transaction_type,
    from_address: item.from_address,
    to_address: item.to_address,
    ...(fromUser === undefined ? {} : { from_user: { username: fromUser } }),
    ...(toUser === undefined ? {} : { to_user: { username: toUser } }),
    amount: item.amount,
    ...(item.fee === undefined ? {} : { fee: item.fee }),
    ...(item.purpose === undefined ? {} : { purpose: withMerchantReference(item.purpose, references) }),
  };
}

/** What names a checkout order on its rows: the shop's reference and the cart's first item, each when known. */
interface CheckoutNames {
  reference?: string;
  firstItem?: string;
}

/** A checkout payment's or refund's purpose with the shop's reference and first item, when the order has them. */
function withMerchantReference(purpose: TransactionPurpose, names: ReadonlyMap<string, CheckoutNames>) {
  if (purpose.kind !== 'checkout' && purpose.kind !== 'checkout_refund') return purpose;
  const found = names.get(purpose.order_id);
  return {
    ...purpose,
    ...(found?.reference === undefined ? {} : { merchant_reference: found.reference }),
    ...(found?.firstItem === undefined ? {} : { first_item: found.firstItem }),
  };
}

/** The shop references and first items of the checkout orders among the items: two HMGETs, whatever the page size. */
async function resolveCheckoutReferences(redis: Redis, items: readonly StoredTransaction[]): Promise<Map<string, CheckoutNames>> {
  const orderIds = [
    ...new Set(
      items.flatMap((item) =>
        item.purpose?.kind === 'checkout' || item.purpose?.kind === 'checkout_refund' ? [item.purpose.order_id] : [],
      ),
    ),
  ];
  const names = new Map<string, CheckoutNames>();
  if (orderIds.length === 0) return names;
  const replies = await redis
    .multi()
    .hmget(CHECKOUT_REFERENCE_KEY, ...orderIds)
    .hmget(CHECKOUT_FIRST_ITEM_KEY, ...orderIds)
    .exec();
  const references = resultOf<(string | null)[]>(replies, 0);
  const firstItems = resultOf<(string | null)[]>(replies, 1);
  orderIds.forEach((orderId, index) => {
    const reference = references[index];
    const firstItem = firstItems[index];
    names.set(orderId, {
      ...(typeof reference === 'string' && reference.length > 0 ? { reference } : {}),
      ...(typeof firstItem === 'string' && firstItem.length > 0 ? { firstItem } : {}),
    });
  });
  return names;
}

const SYSTEM_IDS: ReadonlySet<string> = new Set(Object.values(SYSTEM_WALLET_IDS));

/**
 * A user's wallet has the user's id, so the username is in the users read model under that id;
 * system accounts have none. One pipelined HGET per distinct wallet id (at most two per item).
 */
async function resolveUsernames(redis: Redis, items: readonly StoredTransaction[]): Promise<Map<string, string>> {
  const ids = new Set<string>();
  for (const item of items) {
    if (item.from_wallet_id !== undefined && !SYSTEM_IDS.has(item.from_wallet_id)) ids.add(item.from_wallet_id);
    if (item.to_wallet_id !== undefined && !SYSTEM_IDS.has(item.to_wallet_id)) ids.add(item.to_wallet_id);
  }
  const usernames = new Map<string, string>();
  if (ids.size === 0) return usernames;
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hget(userKey(id), 'username');
  const replies = (await pipeline.exec()) ?? [];
  [...ids].forEach((id, index) => {
    const [error, username] = replies[index] ?? [null, null];
    if (error) throw error;
    if (typeof username === 'string' && username.length > 0) usernames.set(id, username);
  });
  return usernames;
}

/** History entries one detail lookup may scan at most (ZSCAN COUNT × rounds); past it, not found. */
export const TRANSACTION_LOOKUP_SCAN_MAX = 200_000;
const LOOKUP_SCAN_COUNT = 1_000;

/**
 * One transaction of the wallet by its hash, for the detail's own URL: a pending item, else a
 * completed one, else null. The pending hash is small and read whole; the history is walked with
 * ZSCAN MATCH on the member's JSON (the hash pattern has no glob characters), bounded by
 * TRANSACTION_LOOKUP_SCAN_MAX entries.
 */
export async function findTransaction(
  redis: Redis,
  walletId: string,
  transactionHash: string,
): Promise<CompletedTransaction | PendingTransaction | null> {
  if (!TRANSACTION_HASH_PATTERN.test(transactionHash)) throw invalidRequest();
  const pending = (await getPendingTransactions(redis, walletId)).find((item) => item.transaction_hash === transactionHash);
  if (pending) return pending;
  return (await findHistoryEntry(redis, walletId, transactionHash))?.transaction ?? null;
}

/** A completed transaction of the wallet and the log position of the event that completed it (its score). */
export interface HistoryEntry {
  transaction: CompletedTransaction;
  position: bigint;
}

/**
 * One completed transaction of the wallet by its hash, with its log position (a receipt prices it
 * at the rate in force there), or null. The history is walked with ZSCAN MATCH on the member's
 * JSON (the hash pattern has no glob characters), bounded by TRANSACTION_LOOKUP_SCAN_MAX entries.
 */
export async function findHistoryEntry(redis: Redis, walletId: string, transactionHash: string): Promise<HistoryEntry | null> {
  if (!TRANSACTION_HASH_PATTERN.test(transactionHash)) throw invalidRequest();
  const pattern = `*"transaction_hash":${JSON.stringify(transactionHash)},*`;
  let cursor = '0';
  for (let scanned = 0; scanned < TRANSACTION_LOOKUP_SCAN_MAX; scanned += LOOKUP_SCAN_COUNT) {
    const [next, members] = await redis.zscan(walletHistoryKey(walletId), cursor, 'MATCH', pattern, 'COUNT', LOOKUP_SCAN_COUNT);
    // ZSCAN answers member, score, member, score...
    const [member, score] = members;
    if (member !== undefined && score !== undefined) {
      const [transaction] = await completedTransactionsOf(redis, [JSON.parse(member) as StoredCompletedTransaction]);
      if (transaction) return { transaction, position: BigInt(score) };
    }
    if (next === '0') return null;
    cursor = next;
  }
  return null;
}

/** Stored history rows as the contracts answer them: usernames and checkout names resolved in two round trips. */
export async function completedTransactionsOf(
  redis: Redis,
  stored: readonly StoredCompletedTransaction[],
): Promise<CompletedTransaction[]> {
  const [usernames, references] = await Promise.all([resolveUsernames(redis, stored), resolveCheckoutReferences(redis, stored)]);
  return stored.map((item) => ({
    ...publicFields(item, usernames, references),
    balance: item.balance,
    transaction_date: item.transaction_date,
  }));
}

/** When the wallet was closed (ADR 042, account deletion); null while it is open or not projected. */
export async function getWalletClosedAt(redis: Redis, walletId: string): Promise<string | null> {
  return redis.hget(walletKey(walletId), 'closed_at');
}

/** How many sends are reserved and not yet posted or voided, across all wallets (the metrics' gauge). */
export async function countPendingSettlements(redis: Redis): Promise<number> {
  return redis.hlen(PENDING_SETTLEMENTS_KEY);
}

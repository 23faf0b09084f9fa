// Proves the filtered history read on real Redis: kind, counterparty (username in any case, or address, on the other side), inclusive date days and their combination each keep only their rows, newest first; paging and total count matches; bad filters are refused; no filter answers exactly as before; a scan past its bound says scan_limited.
import { randomBytes } from 'node:crypto';
import { AppError } from '@quern/core';
import { createAddress } from '@quern/core/wallet';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allProjections } from '../index.js';
import { startProjections } from '../runner.js';
import { registerUsers } from '../../test/events.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import type { StoredCompletedTransaction } from './items.js';
import { walletHistoryKey } from './keys.js';
import { HISTORY_FILTER_SCAN_MAX, getTransactionsPage } from './queries.js';
import { caughtUp } from '../../test/wallets-world.js';
import { transactionsPageOutput, type HistoryFilter } from '@quern/core/history';

let redis: PrivateRedis;
let temp: TempStore;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  temp = openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

interface Party {
  id: string;
  address: string;
}
const party = (id: string): Party => ({ id, address: createAddress(randomBytes(20), 'mainnet') });
const external = createAddress(randomBytes(20), 'mainnet');

/** Registers User_0..User_2 in the log and projects them, so usernames resolve as in production. */
async function people(): Promise<[Party, Party, Party]> {
  const ids = await registerUsers(temp.store, 3);
  const runner = startProjections({ store: temp.store, redis: redis.redis, projections: allProjections, logger: captureLog().logger });
  try {
    await caughtUp(temp.store, runner);
  } finally {
    await runner.close();
  }
  return ids.map(party) as [Party, Party, Party];
}

function row(
  i: number,
  me: Party,
  other: Party | string,
  type: 'credit' | 'debit',
  day: string,
  purpose?: object,
): StoredCompletedTransaction {
  const otherAddress = typeof other === 'string' ? other : other.address;
  const otherId = typeof other === 'string' ? undefined : other.id;
  const incoming = type === 'credit';
  return {
    transaction_hash: `tx-${i}`,
    transaction_type: type,
    from_address: incoming ? otherAddress : me.address,
    to_address: incoming ? me.address : otherAddress,
    amount: String(100 + i),
    ...(incoming ? {} : { fee: '1000' }),
    ...(purpose === undefined ? {} : { purpose: purpose as StoredCompletedTransaction['purpose'] }),
    ...(incoming ? (otherId === undefined ? {} : { from_wallet_id: otherId }) : { from_wallet_id: me.id }),
    ...(incoming ? { to_wallet_id: me.id } : otherId === undefined ? {} : { to_wallet_id: otherId }),
    balance: String(1_000_000 + i),
    transaction_date: `${day}T12:00:00.000Z`,
  };
}

/** Writes rows as the projection stores them: a member per row, scored by its (increasing) position. */
async function store(walletId: string, rows: StoredCompletedTransaction[]): Promise<void> {
  const pipeline = redis.redis.pipeline();
  for (const [index, item] of rows.entries()) pipeline.zadd(walletHistoryKey(walletId), index + 1, JSON.stringify(item));
  await pipeline.exec();
}

const read = async (walletId: string, page: number, filter?: HistoryFilter) => {
  const result = await getTransactionsPage(redis.redis, walletId, page, 10, filter);
  expect(transactionsPageOutput.parse(result)).toEqual(result);
  return result;
};
const hashes = async (walletId: string, filter: HistoryFilter, page = 0) =>
  (await read(walletId, page, filter)).transactions.map((t) => t.transaction_hash);

describe('filtered wallet history', () => {
  it('given a mixed history, when filtered by each field and by several, then only matching rows come back newest first', async () => {
    const [me, alice, shop] = await people();
    await store(me.id, [
      row(0, me, alice, 'credit', '2026-01-05'),
      row(1, me, alice, 'debit', '2026-01-06'),
      row(2, me, shop, 'debit', '2026-02-01', { kind: 'checkout', order_id: 'ord-1' }),
      row(3, me, external, 'credit', '2026-02-02'),
      row(4, me, shop, 'credit', '2026-02-03', { kind: 'checkout_refund', order_id: 'ord-1', refund_id: 'rf-1' }),
    ]);

    expect(await hashes(me.id, { kind: 'sent' })).toEqual(['tx-1']);
    expect(await hashes(me.id, { kind: 'received' })).toEqual(['tx-3', 'tx-0']);
    expect(await hashes(me.id, { kind: 'checkout_payment' })).toEqual(['tx-2']);
    expect(await hashes(me.id, { kind: 'checkout_refund' })).toEqual(['tx-4']);
    expect(await hashes(me.id, { counterparty: 'user_0' })).toEqual([]);
    expect(await hashes(me.id, { counterparty: 'USER_1' })).toEqual(['tx-1', 'tx-0']);
    expect(await hashes(me.id, { counterparty: 'User_2' })).toEqual(['tx-4', 'tx-2']);
    expect(await hashes(me.id, { counterparty: external })).toEqual(['tx-3']);
    expect(await hashes(me.id, { counterparty: me.address })).toEqual([]);
    expect(await hashes(me.id, { from: '2026-02-01' })).toEqual(['tx-4', 'tx-3', 'tx-2']);
    expect(await hashes(me.id, { to: '2026-01-06' })).toEqual(['tx-1', 'tx-0']);
    expect(await hashes(me.id, { from: '2026-01-06', to: '2026-02-02' })).toEqual(['tx-3', 'tx-2', 'tx-1']);
    expect(await hashes(me.id, { counterparty: 'user_2', kind: 'checkout_payment', from: '2026-02-01', to: '2026-02-01' })).toEqual([
      'tx-2',
    ]);
    expect(await hashes(me.id, { counterparty: 'user_1', kind: 'checkout_payment' })).toEqual([]);

    // The rows come back in the spec's shape, with usernames, as an unfiltered page shows them.
    const all = await read(me.id, 0);
    const filtered = await read(me.id, 0, { counterparty: 'user_1' });
    expect(filtered.transactions).toEqual(all.transactions.filter((t) => ['tx-1', 'tx-0'].includes(t.transaction_hash)));
    expect(filtered.transactions[0]?.to_user).toEqual({ username: 'User_1' });
  });

  it('given more matches than a page, then pages and total count matches only', async () => {
    const [me, alice, shop] = await people();
    const rows = Array.from({ length: 40 }, (_, i) => row(i, me, i % 2 === 0 ? alice : shop, 'credit', '2026-03-01'));
    await store(me.id, rows);
    const first = await read(me.id, 0, { counterparty: 'user_1' });
    expect(first.total).toBe(20);
    expect(first.transactions.map((t) => t.transaction_hash)).toEqual([38, 36, 34, 32, 30, 28, 26, 24, 22, 20].map((i) => `tx-${i}`));
    expect(await hashes(me.id, { counterparty: 'user_1' }, 1)).toEqual([18, 16, 14, 12, 10, 8, 6, 4, 2, 0].map((i) => `tx-${i}`));
    expect(await read(me.id, 2, { counterparty: 'user_1' })).toEqual({ transactions: [], total: 20, page: 2, limit: 10 });
    // Without a filter: the spec's answer, unchanged (no scan_limited field).
    expect(await read(me.id, 0)).toEqual({ transactions: expect.any(Array), total: 40, page: 0, limit: 10 });
    expect(await read(me.id, 0, {})).toEqual(await read(me.id, 0));
  });

  it('given a history longer than the scan bound, then the newest rows are searched and the answer says scan_limited', async () => {
    const [me, alice] = await people();
    const rows = Array.from({ length: HISTORY_FILTER_SCAN_MAX + 5 }, (_, i) =>
      row(i, me, alice, 'credit', i < 5 ? '2025-01-01' : '2026-01-01'),
    );
    await store(me.id, rows);
    const old = await read(me.id, 0, { to: '2025-12-31' });
    expect(old).toEqual({ transactions: [], total: 0, page: 0, limit: 10, scan_limited: true });
    const recent = await read(me.id, 0, { from: '2026-01-01' });
    expect(recent.total).toBe(HISTORY_FILTER_SCAN_MAX);
    expect(recent.scan_limited).toBe(true);
  });

  it('given a bad page, then it is refused as before', async () => {
    const [me] = await people();
    await expect(getTransactionsPage(redis.redis, me.id, -1, 10, { kind: 'sent' })).rejects.toBeInstanceOf(AppError);
  });
});

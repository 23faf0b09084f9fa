// Proves a wallet history of 20,000 completed transactions, appended straight to the log, pages correctly deep in the set: page 1,000 is exactly the expected slice, newest first, with balances and usernames.
import { randomBytes } from 'node:crypto';
import type { NewEvent } from '@quern/core';
import { createAddress, walletStream } from '@quern/core/wallet';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allProjections } from '../index.js';
import { startProjections } from '../runner.js';
import { registerUsers } from '../../test/events.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { getTransactionsPage, getWalletBalance } from './queries.js';
import { caughtUp } from '../../test/wallets-world.js';
import { transactionsPageOutput } from '@quern/core/history';

const CREDITS = 20_000;
const APPEND_BATCH = 1_000;
const AMOUNT_MLX = 100;

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

const creditedAt = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString();

/** Credit i (0-based) from payer to payee, with the balance the decider would stamp after it. */
function credit(i: number, payee: { id: string; address: string }, payer: { id: string; address: string }): NewEvent {
  const postedMlx = String((i + 1) * AMOUNT_MLX);
  return {
    type: 'TransferCredited',
    data: {
      walletId: payee.id,
      transferId: `bulk-${i}`,
      fromWalletId: payer.id,
      fromAddress: payer.address,
      toAddress: payee.address,
      amountMlx: String(AMOUNT_MLX),
      creditedAt: creditedAt(i),
      balanceAfter: { postedMlx, heldMlx: '0', pendingCreditMlx: '0' },
    },
  };
}

describe('wallet history at scale', () => {
  it(`given ${CREDITS} credits appended in batches, when projected, then page 1,000 is credits 9,999 down to 9,990 and the page after the last is empty`, async () => {
    const [payerId, payeeId] = (await registerUsers(temp.store, 2)) as [string, string];
    const payer = { id: payerId, address: createAddress(randomBytes(20), 'mainnet') };
    const payee = { id: payeeId, address: createAddress(randomBytes(20), 'mainnet') };
    const opened: NewEvent = {
      type: 'WalletOpened',
      data: { walletId: payee.id, kind: 'user', address: payee.address, ownerUserId: payee.id, openedAt: creditedAt(0) },
    };
    let revision = (await temp.store.append(walletStream(payee.id), [opened], 'no_stream')).nextExpectedRevision;
    for (let first = 0; first < CREDITS; first += APPEND_BATCH) {
      const batch = Array.from({ length: APPEND_BATCH }, (_, k) => credit(first + k, payee, payer));
      revision = (await temp.store.append(walletStream(payee.id), batch, revision)).nextExpectedRevision;
    }
    const runner = startProjections({ store: temp.store, redis: redis.redis, projections: allProjections, logger: captureLog().logger });
    try {
      await caughtUp(temp.store, runner);
    } finally {
      await runner.close();
    }

    const page = await getTransactionsPage(redis.redis, payee.id, 1_000);
    expect(transactionsPageOutput.parse(page)).toEqual(page);
    const expected = Array.from({ length: 10 }, (_, k) => 9_999 - k).map((i) => ({
      transaction_hash: `bulk-${i}`,
      transaction_type: 'credit',
      from_address: payer.address,
      to_address: payee.address,
      from_user: { username: 'User_0' },
      to_user: { username: 'User_1' },
      amount: String(AMOUNT_MLX),
      balance: String((i + 1) * AMOUNT_MLX),
      transaction_date: creditedAt(i),
    }));
    expect(page).toEqual({ transactions: expected, total: CREDITS, page: 1_000, limit: 10 });
    expect((await getTransactionsPage(redis.redis, payee.id, 0)).transactions[0]?.transaction_hash).toBe(`bulk-${CREDITS - 1}`);
    expect((await getTransactionsPage(redis.redis, payee.id, 1_999)).transactions.map((t) => t.transaction_hash).at(-1)).toBe('bulk-0');
    expect(await getTransactionsPage(redis.redis, payee.id, 2_000)).toEqual({ transactions: [], total: CREDITS, page: 2_000, limit: 10 });
    expect(await getWalletBalance(redis.redis, payee.id)).toEqual({ stable: String(CREDITS * AMOUNT_MLX), unstable: '0' });
  });
});

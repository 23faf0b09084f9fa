// Proves the wallet read models, built by the runner from real wallet commands in a real SQLite log, answer the dashboard's balance, pending and paged history (with usernames, voids, external sends, deposits, and PayPal purchases, refunds and reversals with their purpose), and that a rebuild reproduces them exactly.
import { randomBytes } from 'node:crypto';
import { AppError } from '@quern/core';
import {
  closeWallet,
  createAddress,
  executeWalletCommand,
  loadWallet,
  settleInternalTransfer,
  SYSTEM_WALLET_IDS,
  type WalletDeps,
} from '@quern/core/wallet';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allProjections } from '../index.js';
import { rebuildProjections } from '../rebuild.js';
import { startProjections, type ProjectionRunner } from '../runner.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { captureLog, openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { walletPendingKey } from './keys.js';
import {
  findWalletIdByAddress,
  getPendingTransactions,
  getTransactionsPage,
  getWalletAddress,
  getWalletBalance,
  getWalletClosedAt,
} from './queries.js';
import {
  caughtUp,
  headPosition,
  openWorld,
  purchaseCredited,
  purchaseReturned,
  RESERVE,
  sendReserved,
  sendSettled,
  walletDeps,
  type Person,
} from '../../test/wallets-world.js';
import { PENDING_TRANSACTIONS_MAX, pendingTransactionsOutput, TRANSACTIONS_PAGE_MAX, transactionsPageOutput } from '@quern/core/history';

let redis: PrivateRedis;
let temp: TempStore;
let runner: ProjectionRunner | undefined;
let deps: WalletDeps;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  temp = openTempStore();
  deps = walletDeps(temp.store);
});
afterEach(async () => {
  await runner?.close();
  runner = undefined;
  await temp.dispose();
});

/** Starts the runner on first use (the live path the api takes) and waits until it has applied the whole log. */
const settled = () => {
  runner ??= startProjections({ store: temp.store, redis: redis.redis, projections: allProjections, logger: captureLog().logger });
  return caughtUp(temp.store, runner);
};
const balance = (walletId: string) => getWalletBalance(redis.redis, walletId);
const pending = async (walletId: string) => {
  const content = await getPendingTransactions(redis.redis, walletId);
  // Whatever the read model holds, the answer must be what the API promises.
  expect(pendingTransactionsOutput.parse({ content })).toEqual({ content });
  return content;
};
const page = async (walletId: string, n: number, limit?: number) => {
  const result = await getTransactionsPage(redis.redis, walletId, n, limit);
  expect(transactionsPageOutput.parse(result)).toEqual(result);
  return result;
};
const user = (person: Person) => ({ username: person.username });

/** Two users; the first funded with 100,000 MLX from the reserve. */
async function aliceAndBob(): Promise<[Person, Person]> {
  const [alice, bob] = (await openWorld(deps, 2)) as [Person, Person];
  await sendSettled(deps, RESERVE, alice.address, 100_000n);
  return [alice, bob];
}

describe('wallet read models: sends between Quern wallets', () => {
  it('given a reserved send, when projected, then both dashboards show it pending with usernames and Current drops by amount + fee', async () => {
    const [alice, bob] = await aliceAndBob();
    const transferId = await sendReserved(deps, alice.id, bob.address, 5_000n);
    await settled();

    expect(await balance(alice.id)).toEqual({ stable: '94000', unstable: '0' });
    expect(await balance(bob.id)).toEqual({ stable: '0', unstable: '0' });
    const common = {
      transaction_hash: transferId,
      from_address: alice.address,
      to_address: bob.address,
      from_user: user(alice),
      to_user: user(bob),
    };
    expect(await pending(alice.id)).toEqual([
      { ...common, transaction_type: 'debit', amount: '5000', fee: '1000', create_date: expect.any(String) },
    ]);
    expect(await pending(bob.id)).toEqual([{ ...common, transaction_type: 'credit', amount: '5000', create_date: expect.any(String) }]);
    expect((await page(bob.id, 0)).total).toBe(0);
  });

  it('given the send settled, when projected, then the pending items are gone and both histories show it with the posted balance after it', async () => {
    const [alice, bob] = await aliceAndBob();
    const transferId = await sendReserved(deps, alice.id, bob.address, 5_000n);
    await settleInternalTransfer(deps, alice.id, transferId);
    await settled();

    expect(await pending(alice.id)).toEqual([]);
    expect(await pending(bob.id)).toEqual([]);
    expect(await balance(alice.id)).toEqual({ stable: '94000', unstable: '0' });
    expect(await balance(bob.id)).toEqual({ stable: '5000', unstable: '0' });
    const reserveAddress = await getWalletAddress(redis.redis, RESERVE);
    const aliceHistory = await page(alice.id, 0);
    expect(aliceHistory).toEqual({
      transactions: [
        {
          transaction_hash: transferId,
          transaction_type: 'debit',
          from_address: alice.address,
          to_address: bob.address,
          from_user: user(alice),
          to_user: user(bob),
          amount: '5000',
          fee: '1000',
          balance: '94000',
          transaction_date: expect.any(String),
        },
        {
          transaction_hash: expect.any(String),
          transaction_type: 'credit',
          from_address: reserveAddress,
          to_address: alice.address,
          to_user: user(alice),
          amount: '100000',
          balance: '100000',
          transaction_date: expect.any(String),
        },
      ],
      total: 2,
      page: 0,
      limit: 10,
    });
    expect((await page(bob.id, 0)).transactions).toEqual([
      {
        transaction_hash: transferId,
        transaction_type: 'credit',
        from_address: alice.address,
        to_address: bob.address,
        from_user: user(alice),
        to_user: user(bob),
        amount: '5000',
        balance: '5000',
        transaction_date: expect.any(String),
      },
    ]);
  });

  it('given a send voided before its credit, and one to an account that takes no credits, when projected, then no pending item is left on either side', async () => {
    const [alice, bob] = await aliceAndBob();
    const expiring = await sendReserved(deps, alice.id, bob.address, 2_000n);
    await settled();
    expect(await pending(bob.id)).toHaveLength(1);

    await executeWalletCommand(deps, alice.id, { type: 'VoidTransfer', data: { transferId: expiring, reason: 'expired' } });
    await settled();
    expect(await pending(alice.id)).toEqual([]);
    expect(await pending(bob.id)).toEqual([]);
    expect(await balance(alice.id)).toEqual({ stable: '100000', unstable: '0' });

    const feeAddress = (await getWalletAddress(redis.redis, SYSTEM_WALLET_IDS.fee)) as string;
    const refused = await sendReserved(deps, alice.id, feeAddress, 3_000n);
    await settled();
    expect(await pending(SYSTEM_WALLET_IDS.fee)).toEqual([
      expect.objectContaining({ transaction_hash: refused, transaction_type: 'credit', from_user: user(alice) }),
    ]);
    await expect(settleInternalTransfer(deps, alice.id, refused)).resolves.toBe('voided');
    await settled();
    expect(await pending(SYSTEM_WALLET_IDS.fee)).toEqual([]);
    expect(await pending(alice.id)).toEqual([]);
    expect(await balance(alice.id)).toEqual({ stable: '100000', unstable: '0' });
    expect((await page(alice.id, 0)).total).toBe(1);
  });
});

describe('wallet read models: the millix network', () => {
  it('given an external send, when reserved then posted with its millix hash, then the row is named by the hash and has no payee user', async () => {
    const [alice] = await aliceAndBob();
    const external = createAddress(randomBytes(20), 'mainnet');
    const transferId = await sendReserved(deps, alice.id, external, 10_000n);
    await settled();
    expect(await pending(alice.id)).toEqual([
      {
        transaction_hash: transferId,
        transaction_type: 'debit',
        from_address: alice.address,
        to_address: external,
        from_user: user(alice),
        amount: '10000',
        fee: '1000',
        create_date: expect.any(String),
      },
    ]);
    expect(await balance(alice.id)).toEqual({ stable: '89000', unstable: '0' });

    await executeWalletCommand(deps, alice.id, { type: 'PostTransfer', data: { transferId, networkTransactionHash: 'feedbeef01' } });
    await settled();
    expect(await pending(alice.id)).toEqual([]);
    expect((await page(alice.id, 0)).transactions[0]).toEqual({
      transaction_hash: 'feedbeef01',
      transaction_type: 'debit',
      from_address: alice.address,
      to_address: external,
      from_user: user(alice),
      amount: '10000',
      fee: '1000',
      balance: '89000',
      transaction_date: expect.any(String),
    });
  });

  it('given deposits, when received, then they are Pending; when one is confirmed and one rejected, then only the confirmed one enters the history', async () => {
    const [, bob] = await aliceAndBob();
    const sender = createAddress(randomBytes(20), 'mainnet');
    const receive = (depositId: string, hash: string, amountMlx: bigint) =>
      executeWalletCommand(deps, bob.id, {
        type: 'ReceiveDeposit',
        data: { depositId, networkTransactionHash: hash, fromAddress: sender, amountMlx },
      });
    await receive('aa11:0', 'aa11', 7_000n);
    await receive('bb22:1', 'bb22', 3_000n);
    await settled();
    expect(await balance(bob.id)).toEqual({ stable: '0', unstable: '10000' });
    const incoming = { transaction_type: 'credit', from_address: sender, to_address: bob.address, to_user: user(bob) };
    expect(await pending(bob.id)).toEqual([
      { ...incoming, transaction_hash: 'bb22', amount: '3000', create_date: expect.any(String) },
      { ...incoming, transaction_hash: 'aa11', amount: '7000', create_date: expect.any(String) },
    ]);

    await executeWalletCommand(deps, bob.id, { type: 'ConfirmDeposit', data: { depositId: 'aa11:0' } });
    await executeWalletCommand(deps, bob.id, { type: 'RejectDeposit', data: { depositId: 'bb22:1', reason: 'networkInvalidated' } });
    await settled();
    expect(await balance(bob.id)).toEqual({ stable: '7000', unstable: '0' });
    expect(await pending(bob.id)).toEqual([]);
    expect(await page(bob.id, 0)).toEqual({
      transactions: [{ ...incoming, transaction_hash: 'aa11', amount: '7000', balance: '7000', transaction_date: expect.any(String) }],
      total: 1,
      page: 0,
      limit: 10,
    });
  });

  it('given opened wallets, when looked up, then address and wallet id map both ways; unknown ones give null', async () => {
    const [alice] = await aliceAndBob();
    await settled();
    expect(await getWalletAddress(redis.redis, alice.id)).toBe(alice.address);
    expect(await findWalletIdByAddress(redis.redis, alice.address)).toBe(alice.id);
    expect(await findWalletIdByAddress(redis.redis, createAddress(randomBytes(20), 'mainnet'))).toBeNull();
    expect(await findWalletIdByAddress(redis.redis, '')).toBeNull();
    expect(await getWalletAddress(redis.redis, 'no-such-wallet')).toBeNull();
    expect(await getWalletBalance(redis.redis, 'no-such-wallet')).toBeNull();
    expect(await getPendingTransactions(redis.redis, 'no-such-wallet')).toEqual([]);
  });
});

describe('wallet read models: the pending list bound', () => {
  it(`given more pending items than PENDING_TRANSACTIONS_MAX, when listed, then only the newest ${PENDING_TRANSACTIONS_MAX} come, newest first by log position`, async () => {
    const count = PENDING_TRANSACTIONS_MAX + 50;
    const items: Record<string, string> = {};
    for (let i = 1; i <= count; i += 1) {
      // Positions past 2^53 still order exactly: they are compared as bigints.
      const position = (2n ** 60n + BigInt(i)).toString();
      items[`t${i}`] = JSON.stringify({
        transaction_hash: `t${i}`,
        transaction_type: 'credit',
        from_address: 'a',
        to_address: 'b',
        amount: '1',
        create_date: '2026-01-01T00:00:00.000Z',
        to_wallet_id: 'w',
        position,
      });
    }
    await redis.redis.hset(walletPendingKey('w'), items);
    const content = await pending('w');
    expect(content).toHaveLength(PENDING_TRANSACTIONS_MAX);
    expect(content[0]?.transaction_hash).toBe(`t${count}`);
    expect(content.at(-1)?.transaction_hash).toBe(`t${count - PENDING_TRANSACTIONS_MAX + 1}`);
    expect(content[0]).not.toHaveProperty('position');
    expect(content[0]).not.toHaveProperty('to_wallet_id');
  });
});

describe('wallet read models: pagination', () => {
  it('given 23 credits, when paged by 10, then pages hold the newest first with the balance after each, and a page past the end is empty with the total', async () => {
    const [alice, bob] = (await openWorld(deps, 2)) as [Person, Person];
    for (let i = 1; i <= 23; i += 1) await sendSettled(deps, RESERVE, alice.address, BigInt(i * 100));
    await settled();
    // Credit i brings the balance to 100 * (1 + ... + i).
    const row = (i: number) => ({ amount: String(i * 100), balance: String((100 * i * (i + 1)) / 2) });
    const rows = async (n: number, limit?: number) =>
      (await page(alice.id, n, limit)).transactions.map(({ amount, balance }) => ({ amount, balance }));

    expect(await rows(0)).toEqual([23, 22, 21, 20, 19, 18, 17, 16, 15, 14].map(row));
    expect(await rows(1)).toEqual([13, 12, 11, 10, 9, 8, 7, 6, 5, 4].map(row));
    expect(await rows(2)).toEqual([3, 2, 1].map(row));
    expect(await rows(2, 5)).toEqual([13, 12, 11, 10, 9].map(row));
    expect(await page(alice.id, 3)).toEqual({ transactions: [], total: 23, page: 3, limit: 10 });
    expect(await page(alice.id, TRANSACTIONS_PAGE_MAX)).toEqual({ transactions: [], total: 23, page: TRANSACTIONS_PAGE_MAX, limit: 10 });
    expect(await page(bob.id, 0)).toEqual({ transactions: [], total: 0, page: 0, limit: 10 });
  });

  it('given a bad page or limit, when paging, then it is refused as an invalid request', async () => {
    for (const [n, limit] of [
      [-1, 10],
      [1.5, 10],
      [TRANSACTIONS_PAGE_MAX + 1, 10],
      [Number.NaN, 10],
      [0, 0],
      [0, 11],
    ] as const) {
      const refusal = getTransactionsPage(redis.redis, 'any', n, limit);
      await expect(refusal).rejects.toBeInstanceOf(AppError);
      await expect(refusal).rejects.toMatchObject({ code: 'VALIDATION', messageKey: 'errors:invalidRequest' });
    }
  });
});

describe('wallet read models: PayPal purchases', () => {
  /** 10 USD at 0.000012 USD per MLX. */
  const ORDER_MLX = 833_333n;

  it('given a purchase credited, then partly refunded and the rest reversed, when projected, then the buyer’s rows name the order, the capture and each return', async () => {
    const [alice] = await aliceAndBob();
    const captureId = await purchaseCredited(deps, alice.id, 'ORDER-1', 1000n);
    await purchaseReturned(deps, 'refund', { orderId: 'ORDER-1', captureId, id: 'REFUND-1', usdCents: 400n });
    await purchaseReturned(deps, 'reversal', { orderId: 'ORDER-1', captureId, id: 'REVERSAL-1', usdCents: 600n });
    await settled();
    const reserveAddress = await getWalletAddress(redis.redis, RESERVE);

    const ids = { order_id: 'ORDER-1', capture_id: captureId };
    const refundedMlx = (ORDER_MLX * 400n + 999n) / 1000n;
    const fromReserve = { from_address: reserveAddress, to_address: alice.address, to_user: user(alice) };
    const toReserve = { from_address: alice.address, to_address: reserveAddress, from_user: user(alice), fee: '0' };
    expect(await pending(alice.id)).toEqual([]);
    expect((await page(alice.id, 0)).transactions).toEqual([
      {
        ...toReserve,
        transaction_hash: 'purchase-reversal-REVERSAL-1',
        transaction_type: 'debit',
        amount: String(ORDER_MLX - refundedMlx),
        purpose: { kind: 'purchase_reversal', ...ids, refund_id: 'REVERSAL-1' },
        balance: '100000',
        transaction_date: expect.any(String),
      },
      {
        ...toReserve,
        transaction_hash: 'purchase-refund-REFUND-1',
        transaction_type: 'debit',
        amount: String(refundedMlx),
        purpose: { kind: 'purchase_refund', ...ids, refund_id: 'REFUND-1' },
        balance: String(100_000n + ORDER_MLX - refundedMlx),
        transaction_date: expect.any(String),
      },
      {
        ...fromReserve,
        transaction_hash: `purchase-${captureId}`,
        transaction_type: 'credit',
        amount: String(ORDER_MLX),
        purpose: { kind: 'purchase', ...ids },
        balance: String(100_000n + ORDER_MLX),
        transaction_date: expect.any(String),
      },
      // The funding send from the reserve is no purchase: no purpose.
      {
        ...fromReserve,
        transaction_hash: expect.any(String),
        transaction_type: 'credit',
        amount: '100000',
        balance: '100000',
        transaction_date: expect.any(String),
      },
    ]);
    expect(await balance(alice.id)).toEqual({ stable: '100000', unstable: '0' });
  });
});

describe('wallet read models: a closed wallet (ADR 042)', () => {
  it('given bob empty and alice funded, when each is closed, then bob closes (closed_at projected) and alice is refused accountNotEmpty', async () => {
    const [alice, bob] = await aliceAndBob();

    await expect(closeWallet(deps, bob.id)).resolves.toEqual({ closed: true });
    await expect(closeWallet(deps, alice.id)).rejects.toMatchObject({ code: 'CONFLICT', messageKey: 'errors:accountNotEmpty' });
    await settled();

    const closedAt = await getWalletClosedAt(redis.redis, bob.id);
    expect(closedAt).toBe((await loadWallet(deps, bob.id)).state.closedAt);
    expect(Number.isNaN(Date.parse(closedAt ?? ''))).toBe(false);
    expect(await getWalletClosedAt(redis.redis, alice.id)).toBeNull();
    expect(await balance(alice.id)).toEqual({ stable: '100000', unstable: '0' });

    // A second close appends nothing.
    const head = await headPosition(temp.store);
    await expect(closeWallet(deps, bob.id)).resolves.toEqual({ closed: true });
    expect(await headPosition(temp.store)).toBe(head);
  });

  it('given bob closed, when alice pays him at once, then recipientClosed; when a reservation to him is settled, then it is voided recipientClosed and nothing stays pending', async () => {
    const [alice, bob] = await aliceAndBob();
    const reservedBeforeClose = await sendReserved(deps, alice.id, bob.address, 2_000n);
    await expect(closeWallet(deps, bob.id)).resolves.toEqual({ closed: true });

    await expect(sendSettled(deps, alice.id, bob.address, 1_000n)).rejects.toMatchObject({
      code: 'VALIDATION',
      messageKey: 'errors:recipientClosed',
      fields: { to: 'errors:recipientClosed' },
    });
    await expect(settleInternalTransfer(deps, alice.id, reservedBeforeClose)).resolves.toBe('voided');
    expect((await loadWallet(deps, alice.id)).state.transfers.get(reservedBeforeClose)).toMatchObject({
      status: 'voided',
      voidReason: 'recipientClosed',
    });
    await settled();
    expect(await pending(alice.id)).toEqual([]);
    expect(await pending(bob.id)).toEqual([]);
    expect(await balance(alice.id)).toEqual({ stable: '100000', unstable: '0' });
    expect(await balance(bob.id)).toEqual({ stable: '0', unstable: '0' });
  });

  it('given bob closed, when a millix deposit to his address is received and confirmed, then it is recorded and shown, and he still cannot send it', async () => {
    const [alice, bob] = await aliceAndBob();
    await closeWallet(deps, bob.id);
    const external = createAddress(randomBytes(20), 'mainnet');
    await executeWalletCommand(deps, bob.id, {
      type: 'ReceiveDeposit',
      data: { depositId: 'late:0', networkTransactionHash: 'late', fromAddress: external, amountMlx: 7_000n },
    });
    await executeWalletCommand(deps, bob.id, { type: 'ConfirmDeposit', data: { depositId: 'late:0' } });
    await settled();

    expect(await balance(bob.id)).toEqual({ stable: '7000', unstable: '0' });
    expect((await page(bob.id, 0)).transactions).toEqual([expect.objectContaining({ transaction_hash: 'late', amount: '7000' })]);
    await expect(sendSettled(deps, bob.id, alice.address, 1_000n)).rejects.toMatchObject({
      code: 'CONFLICT',
      messageKey: 'errors:accountDeleted',
    });
  });
});

describe('wallet read models: rebuild', () => {
  it('given read models built live from every kind of wallet event, when rebuilt from position 0, then every rm: key and value is identical', async () => {
    const [alice, bob] = await aliceAndBob();
    const external = createAddress(randomBytes(20), 'mainnet');
    await sendSettled(deps, alice.id, bob.address, 4_000n);
    await sendReserved(deps, alice.id, bob.address, 1_000n);
    const voided = await sendReserved(deps, bob.id, alice.address, 500n);
    await executeWalletCommand(deps, bob.id, { type: 'VoidTransfer', data: { transferId: voided, reason: 'expired' } });
    const outgoing = await sendReserved(deps, alice.id, external, 2_000n);
    await executeWalletCommand(deps, alice.id, { type: 'PostTransfer', data: { transferId: outgoing, networkTransactionHash: 'cafe01' } });
    await sendReserved(deps, alice.id, external, 3_000n);
    for (const [depositId, hash] of [
      ['d1:0', 'd1'],
      ['d2:0', 'd2'],
      ['d3:0', 'd3'],
    ] as const)
      await executeWalletCommand(deps, bob.id, {
        type: 'ReceiveDeposit',
        data: { depositId, networkTransactionHash: hash, fromAddress: external, amountMlx: 700n },
      });
    await executeWalletCommand(deps, bob.id, { type: 'ConfirmDeposit', data: { depositId: 'd1:0' } });
    await executeWalletCommand(deps, bob.id, { type: 'RejectDeposit', data: { depositId: 'd2:0', reason: 'expired' } });
    // PayPal: a purchase of 5 USD (416,666 MLX), half refunded, the rest reversed.
    const captureId = await purchaseCredited(deps, bob.id, 'ORDER-R', 500n);
    await purchaseReturned(deps, 'refund', { orderId: 'ORDER-R', captureId, id: 'REFUND-R', usdCents: 250n });
    await purchaseReturned(deps, 'reversal', { orderId: 'ORDER-R', captureId, id: 'REVERSAL-R', usdCents: 250n });
    await settled();
    await runner?.close();
    runner = undefined;
    const live = await dumpKeys(redis.redis, 'rm:*');

    await rebuildProjections({ store: temp.store, redis: redis.redis, projections: allProjections, pageSize: 7 });

    expect(await dumpKeys(redis.redis, 'rm:*')).toEqual(live);
    // The comparison covers the wallet models, not only the users: pending on both sides, histories, the address index.
    expect(live).toMatchObject({
      [`rm:wallet:${alice.id}:pending`]: { hash: expect.any(Object) },
      [`rm:wallet:${bob.id}:pending`]: { hash: expect.any(Object) },
      [`rm:wallet:${alice.id}:history`]: { zset: expect.any(Array) },
      [`rm:wallet:${bob.id}:history`]: { zset: expect.any(Array) },
      'rm:wallet-id-by-address': { hash: expect.objectContaining({ [alice.address]: alice.id }) },
    });
    expect(Object.keys((live[`rm:wallet:${bob.id}:pending`] as { hash: object }).hash)).toHaveLength(2);
    // Bob's purchase rows are in the comparison, with their purpose as stored.
    const bobRows = (live[`rm:wallet:${bob.id}:history`] as { zset: unknown[] }).zset.map(String);
    expect(bobRows.filter((row) => row.includes('"purpose":{"kind":"purchase'))).toHaveLength(3);
    expect(await balance(alice.id)).toEqual({ stable: String(100_000 - 5_000 - 2_000 - 3_000 - 3 * 1_000 - 1_000), unstable: '0' });
    expect(await balance(bob.id)).toEqual({ stable: '4700', unstable: '700' });
  });
});

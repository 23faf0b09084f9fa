// Proves MLX sent to a Quern address on the simulated millix network arrives as DepositReceived and becomes DepositConfirmed only after the network's confirmation delay, that foreign or refused outputs record nothing, that invalidated or never-confirmed deposits are rejected, and that losing the watcher's cursor records nothing twice.
import { loadWallet, SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { memoryJob, openWalletWorld, runToEnd, startWalletPipeline, type WalletPipeline, type WalletWorld } from '../../test/settlement.js';
import { captureLog, connectRedis, eventually, type CapturedLog } from '../../test/pipeline.js';
import { confirmDeposit, type DepositConfirmationDeps } from './job.js';
import { recordIncomingTransaction } from '@quern/core/wallet';
import { DEPOSIT_CURSOR_KEY, startDepositWatcher } from './watcher.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const CONFIRM_DELAY_MS = 400;
let server: RedisServer;
let redis: Redis;
let world: WalletWorld;
let pipeline: WalletPipeline | undefined;
let log: CapturedLog;

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = connectRedis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});
beforeEach(async () => {
  await redis.flushall();
  world = await openWalletWorld({ confirmDelayMs: CONFIRM_DELAY_MS });
  log = captureLog();
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await world.dispose();
});

const start = () =>
  (pipeline = startWalletPipeline({ world, redis, redisUrl: server.url, prefix: 'bull', logger: log.logger, watchDeposits: true }));
const eventsOf = (walletId: string, type: string) => world.events(walletId, type);

const jobDeps = (target: WalletWorld, waitMs = 10_000): DepositConfirmationDeps => ({
  store: target.store,
  transferTerms: transferTermsBook,
  clock: { now: () => new Date() },
  network: target.network,
  logger: captureLog().logger,
  wait: { waitMs, pollIntervalMs: 50 },
});

describe('deposits through the watcher, the dispatcher and the workers', () => {
  it('given a faucet deposit to a user, when the network confirms it, then the wallet records DepositReceived (pending) and later DepositConfirmed', async () => {
    const user = await world.openUser();
    start();
    const sentAtMs = Date.now();
    const { transactionHash } = await world.network.deposit(user.address, 75_000n);

    await eventually(async () => (await eventsOf(user.walletId, 'DepositConfirmed')).length === 1, 10_000, 'the deposit is confirmed');
    const [received] = await eventsOf(user.walletId, 'DepositReceived');
    const [confirmed] = await eventsOf(user.walletId, 'DepositConfirmed');
    expect(received?.data).toMatchObject({
      depositId: `${transactionHash}:0`,
      networkTransactionHash: transactionHash,
      amountMlx: '75000',
    });
    expect(received?.data.balanceAfter).toMatchObject({ postedMlx: '0', pendingCreditMlx: '75000' });
    expect(confirmed?.data).toMatchObject({ depositId: `${transactionHash}:0`, amountMlx: '75000' });
    expect(Date.parse(String(confirmed?.data.confirmedAt))).toBeGreaterThanOrEqual(sentAtMs + CONFIRM_DELAY_MS);
    expect((await loadWallet(world.deps, user.walletId)).state).toMatchObject({ postedBalanceMlx: 75_000n, pendingCreditsMlx: 0n });
    expect(pipeline?.watcher?.status()).toMatchObject({ running: true, recordedDeposits: 1, refusedDeposits: 0 });
    expect(await redis.get(DEPOSIT_CURSOR_KEY)).toBe(pipeline?.watcher?.status().cursor);
    expect(log.error).toEqual([]);
    expect((await world.audit()).violations).toEqual([]);
  });

  it('given outputs to an outside address and to the fee account, when watched, then neither is recorded and the refusal is reported', async () => {
    const user = await world.openUser();
    const feeAddress = (await loadWallet(world.deps, SYSTEM_WALLET_IDS.fee)).state.wallet?.address ?? '';
    start();
    await world.network.deposit(world.outsideAddress(), 5_000n);
    await world.network.deposit(feeAddress, 6_000n);
    await world.network.deposit(user.address, 7_000n);

    await eventually(async () => (await eventsOf(user.walletId, 'DepositReceived')).length === 1, 10_000, 'the user deposit is seen');
    // The watcher counts each output after the wallet took or refused it: on a busy machine the
    // user's deposit is in the log before the counters move.
    await eventually(
      () => {
        const status = pipeline?.watcher?.status();
        return status?.recordedDeposits === 1 && status.refusedDeposits === 1;
      },
      10_000,
      'both outputs are counted',
    );
    expect(await eventsOf(SYSTEM_WALLET_IDS.fee, 'DepositReceived')).toEqual([]);
    expect(pipeline?.watcher?.status()).toMatchObject({ recordedDeposits: 1, refusedDeposits: 1 });
    expect(log.error.some((line) => line.includes(`wallet ${SYSTEM_WALLET_IDS.fee} refused deposit`))).toBe(true);
  });

  it('given a deposit the network invalidates, when the job looks, then the deposit is rejected networkInvalidated and never spendable', async () => {
    const user = await world.openUser();
    const { transactionHash } = await world.network.deposit(user.address, 9_000n);
    await world.network.invalidate(transactionHash);
    start();

    await eventually(async () => (await eventsOf(user.walletId, 'DepositRejected')).length === 1, 10_000, 'the deposit is rejected');
    const [rejected] = await eventsOf(user.walletId, 'DepositRejected');
    expect(rejected?.data).toMatchObject({ depositId: `${transactionHash}:0`, reason: 'networkInvalidated' });
    expect(await eventsOf(user.walletId, 'DepositConfirmed')).toEqual([]);
    expect((await loadWallet(world.deps, user.walletId)).state).toMatchObject({ postedBalanceMlx: 0n, pendingCreditsMlx: 0n });
    expect((await world.audit()).violations).toEqual([]);
  });

  it('given a recorded deposit, when Redis loses the whole watcher and queue state, then the feed is read again from the start and nothing is recorded twice', async () => {
    const user = await world.openUser();
    start();
    await world.network.deposit(user.address, 11_000n);
    await eventually(async () => (await eventsOf(user.walletId, 'DepositConfirmed')).length === 1, 10_000, 'the deposit is confirmed');
    const pollsBefore = pipeline?.watcher?.status().polls ?? 0;

    await redis.flushall();
    await eventually(async () => (await redis.get(DEPOSIT_CURSOR_KEY)) !== null, 5_000, 'the watcher writes its cursor again');
    await eventually(() => (pipeline?.watcher?.status().polls ?? 0) > pollsBefore + 2, 5_000, 'the watcher polls on');
    expect(await eventsOf(user.walletId, 'DepositReceived')).toHaveLength(1);
    expect(await eventsOf(user.walletId, 'DepositConfirmed')).toHaveLength(1);
    expect(pipeline?.watcher?.status().recordedDeposits).toBe(1);
  });

  it('given a cursor the network does not know (corrupted or from another network), when watched, then the feed is read from the start', async () => {
    const user = await world.openUser();
    await world.network.deposit(user.address, 12_000n);
    await redis.set(DEPOSIT_CURSOR_KEY, 'not-a-cursor');
    start();

    await eventually(async () => (await eventsOf(user.walletId, 'DepositReceived')).length === 1, 10_000, 'the deposit is seen');
    expect(await redis.get(DEPOSIT_CURSOR_KEY)).not.toBe('not-a-cursor');
    expect(log.error.some((line) => line.includes('refused cursor'))).toBe(true);
    expect(pipeline?.watcher?.status().running).toBe(true);
  });

  it('given invalid watcher settings, when started, then they are refused', () => {
    const base = { store: world.store, transferTerms: transferTermsBook, redis, network: world.network };
    expect(() => startDepositWatcher({ ...base, pageSize: 0 })).toThrow(RangeError);
    expect(() => startDepositWatcher({ ...base, pageSize: 1_001 })).toThrow(RangeError);
    expect(() => startDepositWatcher({ ...base, intervalMs: 0 })).toThrow(RangeError);
  });
});

describe('deposit jobs run directly', () => {
  it('given the same output twice, when recorded, then the second sighting is a no-op', async () => {
    const user = await world.openUser();
    await world.network.deposit(user.address, 3_000n);
    const [incoming] = (await world.network.incomingSince(undefined, 10)).transactions;
    if (!incoming) throw new Error('no incoming transaction');

    expect((await recordIncomingTransaction(world.deps, incoming)).outcome).toBe('recorded');
    expect((await recordIncomingTransaction(world.deps, incoming)).outcome).toBe('already-recorded');
    expect(await eventsOf(user.walletId, 'DepositReceived')).toHaveLength(1);
  });

  it('given a deposit that stays pending past the bounded wait, when the job looks for the last time, then it is rejected expired', async () => {
    const slow = await openWalletWorld({ confirmDelayMs: 60_000 });
    try {
      const user = await slow.openUser();
      await slow.network.deposit(user.address, 4_000n);
      const [incoming] = (await slow.network.incomingSince(undefined, 10)).transactions;
      if (!incoming) throw new Error('no incoming transaction');
      const recorded = await recordIncomingTransaction(slow.deps, incoming);
      if (recorded.outcome !== 'recorded') throw new Error(`unexpected ${recorded.outcome}`);
      const job = memoryJob({ walletId: user.walletId, depositId: recorded.depositId });

      expect(await runToEnd(job, (j) => confirmDeposit(j, jobDeps(slow, 300)))).toEqual({ outcome: 'rejected', reason: 'expired' });
      expect(job.runs).toBeGreaterThan(2);
      expect(await confirmDeposit(memoryJob(job.current), jobDeps(slow))).toEqual({ outcome: 'already-settled', status: 'rejected' });
      expect((await slow.audit()).violations).toEqual([]);
    } finally {
      await slow.dispose();
    }
  });

  it('given the same confirmation run twice at once, when the deposit is stable, then one DepositConfirmed is recorded', async () => {
    const user = await world.openUser();
    await world.network.deposit(user.address, 8_000n);
    const [incoming] = (await world.network.incomingSince(undefined, 10)).transactions;
    if (!incoming) throw new Error('no incoming transaction');
    const recorded = await recordIncomingTransaction(world.deps, incoming);
    if (recorded.outcome !== 'recorded') throw new Error(`unexpected ${recorded.outcome}`);
    const data = { walletId: user.walletId, depositId: recorded.depositId };

    const outcomes = await Promise.all([
      runToEnd(memoryJob(data), (j) => confirmDeposit(j, jobDeps(world))),
      runToEnd(memoryJob(data), (j) => confirmDeposit(j, jobDeps(world))),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['already-settled', 'confirmed']);
    expect(await eventsOf(user.walletId, 'DepositConfirmed')).toHaveLength(1);
  });

  it('given a job for a deposit the wallet never received, or a malformed payload, when run, then it fails as unrecoverable', async () => {
    const user = await world.openUser();
    await expect(confirmDeposit(memoryJob({ walletId: user.walletId, depositId: 'nohash:0' }), jobDeps(world))).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    await expect(confirmDeposit(memoryJob({ walletId: user.walletId, depositId: 'a.b' }), jobDeps(world))).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    await expect(confirmDeposit(memoryJob({ walletId: user.walletId }), jobDeps(world))).rejects.toBeInstanceOf(UnrecoverableError);
  });
});

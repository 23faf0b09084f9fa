// Proves the settlement job ends every reservation exactly once on a real SQLite log, a private Redis and the simulated millix network: internal sends settle at once with no job while older internal reservations are credited and posted by it, external sends post with the network's hash after confirmation, refusals and expiries void, and repeated or concurrent runs change nothing.
import { randomUUID } from 'node:crypto';
import {
  executeWalletCommand,
  loadWallet,
  sendMlx,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  availableMlx,
  isMillixNetworkError,
} from '@quern/core/wallet';
import { Queue, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openSimulatedNetwork } from '@quern/adapters/millix';
import { captureLog, connectRedis, eventually, type CapturedLog } from '../../test/pipeline.js';
import { settleTransfer, type SettlementDeps } from './job.js';
import { SETTLEMENT_QUEUE, settlementJobId } from './payload.js';
import { memoryJob, openWalletWorld, runToEnd, startWalletPipeline, type WalletPipeline, type WalletWorld } from '../../test/settlement.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const CONFIRM_DELAY_MS = 300;
const FUNDS_MLX = 1_000_000n;
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

const start = (workers: Parameters<typeof startWalletPipeline>[0]['workers'] = {}) =>
  (pipeline = startWalletPipeline({ world, redis, redisUrl: server.url, prefix: 'bull', logger: log.logger, workers }));

const settled = async (walletId: string, transferId: string) => (await world.transferStatus(walletId, transferId)) !== 'reserved';

/** What the workers give the job, for running one directly. */
const deps = (overrides: Partial<SettlementDeps> = {}): SettlementDeps => ({
  store: world.store,
  transferTerms: transferTermsBook,
  clock: { now: () => new Date() },
  network: world.network,
  logger: captureLog().logger,
  settlementDelayMs: 0,
  wait: { waitMs: 10_000, pollIntervalMs: 50 },
  ...overrides,
});

async function reserve(payerId: string, toAddress: string, amountMlx: bigint, toWalletId?: string) {
  const executed = await executeWalletCommand(world.deps, payerId, {
    type: 'ReserveTransfer',
    data: { transferId: randomUUID(), toAddress, toWalletId, amountMlx, feeMlx: SEND_FEE_MLX },
  });
  const reserved = executed.decision.events[0];
  if (reserved?.type !== 'TransferReserved') throw new Error('expected a reservation');
  return { payerWalletId: payerId, transferId: reserved.data.transferId, reservedAt: reserved.data.reservedAt };
}

async function expectAuditClean(): Promise<void> {
  const audit = await world.audit();
  expect(audit.violations).toEqual([]);
  expect(audit.ok).toBe(true);
}

describe('settlement through the dispatcher and the workers', () => {
  it('given a send between Quern wallets, when sent, then it is credited and posted at once and the dispatcher creates no settlement job', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const payee = await world.openUser();
    start();
    const sent = await sendMlx(world.deps, payer.walletId, {
      to: { kind: 'address', address: payee.address },
      amount: 250_000n,
      fee: SEND_FEE_MLX,
    });
    expect(sent.status).toBe('posted');
    expect(await world.transferStatus(payer.walletId, sent.transferId)).toBe('posted');
    const credits = (await world.events(payee.walletId, 'TransferCredited')).filter((e) => e.data.transferId === sent.transferId);
    expect(credits.map((e) => e.data.amountMlx)).toEqual(['250000']);
    expect((await loadWallet(world.deps, payee.walletId)).state.postedBalanceMlx).toBe(250_000n);
    expect((await loadWallet(world.deps, payer.walletId)).state.postedBalanceMlx).toBe(FUNDS_MLX - 251_000n);
    // An external send after it: once its job ran, the dispatcher has read past the internal send.
    const external = await sendMlx(world.deps, payer.walletId, {
      to: { kind: 'address', address: world.outsideAddress() },
      amount: 1_000n,
      fee: SEND_FEE_MLX,
    });
    await eventually(() => settled(payer.walletId, external.transferId), 10_000, 'the external send settles');
    const queue = new Queue(SETTLEMENT_QUEUE, { connection: redis, prefix: 'bull' });
    try {
      expect(await queue.getJob(settlementJobId(sent.transferId))).toBeUndefined();
      expect(await queue.getJob(settlementJobId(external.transferId))).toBeDefined();
    } finally {
      await queue.close();
    }
    expect(log.error).toEqual([]);
    await expectAuditClean();
  });

  it('given an internal reservation recorded before atomic settlement, when settled, then the payee is credited once and the payer posted once', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const payee = await world.openUser();
    start();
    const { transferId } = await reserve(payer.walletId, payee.address, 250_000n, payee.walletId);

    await eventually(() => settled(payer.walletId, transferId), 10_000, 'the internal transfer settles');
    const credits = (await world.events(payee.walletId, 'TransferCredited')).filter((e) => e.data.transferId === transferId);
    expect(credits.map((e) => e.data.amountMlx)).toEqual(['250000']);
    expect((await world.events(payer.walletId, 'TransferPosted')).filter((e) => e.data.transferId === transferId)).toHaveLength(1);
    expect(await world.events(payer.walletId, 'TransferVoided')).toEqual([]);
    expect((await loadWallet(world.deps, payee.walletId)).state.postedBalanceMlx).toBe(250_000n);
    expect((await loadWallet(world.deps, payer.walletId)).state.postedBalanceMlx).toBe(FUNDS_MLX - 251_000n);
    await eventually(() => (pipeline?.workers.status().completedJobs ?? 0) >= 1, 5_000, 'the job completes');
    expect(pipeline?.workers.status()).toMatchObject({
      running: true,
      failedJobs: 0,
      queues: expect.arrayContaining(['settlement', 'deposit-confirmation']),
    });
    expect(log.error).toEqual([]);
    await expectAuditClean();
  });

  it('given a send to an address outside Quern, when settled, then it goes through the network and posts with its hash only once the network confirms', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const outside = world.outsideAddress();
    start();
    const { transferId } = await sendMlx(world.deps, payer.walletId, {
      to: { kind: 'address', address: outside },
      amount: 40_000n,
      fee: SEND_FEE_MLX,
    });

    await eventually(() => settled(payer.walletId, transferId), 10_000, 'the external transfer settles');
    const [reserved] = (await world.events(payer.walletId, 'TransferReserved')).filter((e) => e.data.transferId === transferId);
    const posted = (await world.events(payer.walletId, 'TransferPosted')).filter((e) => e.data.transferId === transferId);
    expect(posted).toHaveLength(1);
    const hash = String(posted[0]?.data.networkTransactionHash);
    expect(await world.network.transactionStatus(hash)).toBe('stable');
    expect(await world.network.balance(outside)).toEqual({ stableMlx: 40_000n, unstableMlx: 0n });
    // Posted only after the simulated network's confirmation delay had passed.
    expect(Date.parse(String(posted[0]?.data.postedAt)) - Date.parse(String(reserved?.data.reservedAt))).toBeGreaterThanOrEqual(
      CONFIRM_DELAY_MS,
    );
    expect(log.error).toEqual([]);
    await expectAuditClean();
  });

  it('given a send to an account that takes no credits (the fee account), when sent, then it is refused at once and nothing moves', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const feeAddress = (await loadWallet(world.deps, SYSTEM_WALLET_IDS.fee)).state.wallet?.address ?? '';
    const before = (await world.events(payer.walletId)).length;
    await expect(
      sendMlx(world.deps, payer.walletId, { to: { kind: 'address', address: feeAddress }, amount: 10_000n, fee: SEND_FEE_MLX }),
    ).rejects.toMatchObject({ code: 'VALIDATION', messageKey: 'errors:recipientCannotReceive' });
    expect(await world.events(payer.walletId)).toHaveLength(before);
    expect(availableMlx((await loadWallet(world.deps, payer.walletId)).state)).toBe(FUNDS_MLX);
  });

  it('given older reservations to payees that cannot be credited (the fee account, a wallet never opened), when settled, then both are voided and the holds released', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const feeAddress = (await loadWallet(world.deps, SYSTEM_WALLET_IDS.fee)).state.wallet?.address ?? '';
    start();
    const toFee = await reserve(payer.walletId, feeAddress, 10_000n, SYSTEM_WALLET_IDS.fee);
    const toNobody = await reserve(payer.walletId, world.outsideAddress(), 20_000n, randomUUID());

    await eventually(
      async () => (await settled(payer.walletId, toFee.transferId)) && settled(payer.walletId, toNobody.transferId),
      10_000,
      'both settle',
    );
    const voided = await world.events(payer.walletId, 'TransferVoided');
    expect(voided.map((e) => [e.data.transferId, e.data.reason]).sort()).toEqual(
      [
        [toFee.transferId, 'recipientCannotReceive'],
        [toNobody.transferId, 'recipientCannotReceive'],
      ].sort(),
    );
    expect(availableMlx((await loadWallet(world.deps, payer.walletId)).state)).toBe(FUNDS_MLX);
    await expectAuditClean();
  });

  it('given a settlement delay, when a send is made, then it waits in the delayed set for the delay and then settles', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    start({ settlementDelayMs: 1_000 });
    // An external send: internal ones settle at once (ADR 019), only these wait for a job.
    const { transferId } = await sendMlx(world.deps, payer.walletId, {
      to: { kind: 'address', address: world.outsideAddress() },
      amount: 5_000n,
      fee: SEND_FEE_MLX,
    });
    const queue = new Queue(SETTLEMENT_QUEUE, { connection: redis, prefix: 'bull' });
    try {
      await eventually(async () => (await queue.getJobState(settlementJobId(transferId))) === 'delayed', 5_000, 'the job is parked');
      expect(await world.transferStatus(payer.walletId, transferId)).toBe('reserved');
      await eventually(() => settled(payer.walletId, transferId), 10_000, 'the delayed transfer settles');
    } finally {
      await queue.close();
    }
    const [reserved] = await world.events(payer.walletId, 'TransferReserved');
    const [posted] = await world.events(payer.walletId, 'TransferPosted');
    expect(Date.parse(String(posted?.data.postedAt)) - Date.parse(String(reserved?.data.reservedAt))).toBeGreaterThanOrEqual(1_000);
  });
});

describe('the settlement job run directly', () => {
  it('given the same external job run twice at once and then again, when settled, then one network transaction and one post exist', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const outside = world.outsideAddress();
    const data = await reserve(payer.walletId, outside, 30_000n);

    const outcomes = await Promise.all([
      runToEnd(memoryJob(data), (job) => settleTransfer(job, deps())),
      runToEnd(memoryJob(data), (job) => settleTransfer(job, deps())),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(['already-settled', 'posted']);
    expect(await settleTransfer(memoryJob(data), deps())).toEqual({ outcome: 'already-settled', status: 'posted' });
    expect(await world.events(payer.walletId, 'TransferPosted')).toHaveLength(1);
    expect(await world.network.balance(outside)).toEqual({ stableMlx: 30_000n, unstableMlx: 0n });
    await expectAuditClean();
  });

  it('given the same internal job run concurrently three times, when settled, then the payee is credited once and the payer posted once', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const payee = await world.openUser();
    const data = await reserve(payer.walletId, payee.address, 70_000n, payee.walletId);

    const outcomes = await Promise.all([1, 2, 3].map(() => runToEnd(memoryJob(data), (job) => settleTransfer(job, deps()))));
    expect(outcomes.every((o) => o.outcome === 'posted' || o.outcome === 'already-settled')).toBe(true);
    expect(await world.events(payee.walletId, 'TransferCredited')).toHaveLength(1);
    expect(await world.events(payer.walletId, 'TransferPosted')).toHaveLength(1);
    await expectAuditClean();
  });

  it('given a network that already holds the transfer id with other details, when sent, then the network refuses and the transfer is voided networkRejected', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const data = await reserve(payer.walletId, world.outsideAddress(), 30_000n);
    await world.network.send({
      transferId: data.transferId,
      fromAddress: payer.address,
      toAddress: world.outsideAddress(),
      amountMlx: 1n,
      feeMlx: SEND_FEE_MLX,
    });

    expect(await runToEnd(memoryJob(data), (job) => settleTransfer(job, deps()))).toEqual({ outcome: 'voided', reason: 'networkRejected' });
    expect(availableMlx((await loadWallet(world.deps, payer.walletId)).state)).toBe(FUNDS_MLX);
    await expectAuditClean();
  });

  it('given a submitted transaction that the network then invalidates, when the job looks again, then the transfer is voided networkRejected', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const data = await reserve(payer.walletId, world.outsideAddress(), 30_000n);
    const job = memoryJob(data);
    await expect(settleTransfer(job, deps())).rejects.toThrow(/run again/);
    const hash = String((job.current.progress as { transactionHash: string }).transactionHash);
    expect(await world.network.invalidate(hash)).toBe(true);

    expect(await runToEnd(job, (j) => settleTransfer(j, deps()))).toEqual({ outcome: 'voided', reason: 'networkRejected' });
    await expectAuditClean();
  });

  it('given an unreachable network, when sent, then the run fails retryably with nothing recorded, and a later run on a reachable network posts', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const data = await reserve(payer.walletId, world.outsideAddress(), 30_000n);
    const down = openSimulatedNetwork({ file: world.networkFile, confirmDelayMs: CONFIRM_DELAY_MS });
    await down.close();
    const job = memoryJob(data);

    const failure = await settleTransfer(job, deps({ network: down })).catch((error: unknown) => error);
    expect(isMillixNetworkError(failure) && failure.code === 'unavailable').toBe(true);
    expect(failure).not.toBeInstanceOf(UnrecoverableError);
    expect(job.current.progress).toBeUndefined();
    expect(await world.transferStatus(payer.walletId, data.transferId)).toBe('reserved');

    const result = await runToEnd(job, (j) => settleTransfer(j, deps()));
    expect(result.outcome).toBe('posted');
  });

  it('given a transaction that stays pending past the bounded wait, when the job looks for the last time, then the transfer is voided expired', async () => {
    const slow = await openWalletWorld({ confirmDelayMs: 60_000 });
    try {
      const payer = await slow.openUser(FUNDS_MLX);
      const executed = await sendMlx(slow.deps, payer.walletId, {
        to: { kind: 'address', address: slow.outsideAddress() },
        amount: 30_000n,
        fee: SEND_FEE_MLX,
      });
      const [reserved] = await slow.events(payer.walletId, 'TransferReserved');
      const data = { payerWalletId: payer.walletId, transferId: executed.transferId, reservedAt: String(reserved?.data.reservedAt) };
      const job = memoryJob(data);
      const slowDeps = { ...deps(), store: slow.store, network: slow.network, wait: { waitMs: 300, pollIntervalMs: 50 } };

      expect(await runToEnd(job, (j) => settleTransfer(j, slowDeps))).toEqual({ outcome: 'voided', reason: 'expired' });
      expect(job.runs).toBeGreaterThan(2);
      expect((await slow.audit()).violations).toEqual([]);
    } finally {
      await slow.dispose();
    }
  });

  it('given a job for a transfer its payer never reserved, or a malformed payload, when run, then it fails as unrecoverable', async () => {
    const payer = await world.openUser(FUNDS_MLX);
    const reservedAt = new Date().toISOString();
    await expect(
      settleTransfer(memoryJob({ payerWalletId: payer.walletId, transferId: randomUUID(), reservedAt }), deps()),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(
      settleTransfer(memoryJob({ payerWalletId: payer.walletId, transferId: 'a:b', reservedAt }), deps()),
    ).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(settleTransfer(memoryJob({ payerWalletId: payer.walletId }), deps())).rejects.toBeInstanceOf(UnrecoverableError);
  });
});

// Proves that after FLUSHALL in the middle of settling a batch of sends (internal ones settled at once, internal reservations recorded the older way, external ones), a restart re-derives the open settlements from the log and every reservation ends posted or voided exactly once: the ledger audit over the whole log finds no violation and no MLX leaves twice.
import { randomUUID } from 'node:crypto';
import { executeWalletCommand, loadWallet, sendMlx, SEND_FEE_MLX, SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { captureLog, connectRedis, eventually } from '../../test/pipeline.js';
import { openWalletWorld, startWalletPipeline, type WalletPipeline, type WalletWorld } from '../../test/settlement.js';

const SENDS = 24;
let server: RedisServer;
let redis: Redis;

beforeAll(async () => {
  server = await startPrivateRedis();
  redis = connectRedis(server.url);
});
afterAll(async () => {
  redis.disconnect();
  await server.stop();
});

interface Send {
  payerId: string;
  transferId: string;
  outsideAddress?: string;
  payeeId?: string;
  /** Settled in the append that recorded it (ADR 019): never a job. */
  atOnce: boolean;
}

/** External sends the network already holds whose reservation is not settled yet. */
async function sendsInFlight(world: WalletWorld, sends: readonly Send[]): Promise<number> {
  let count = 0;
  for (const s of sends) {
    if (!s.outsideAddress || (await world.transferStatus(s.payerId, s.transferId)) !== 'reserved') continue;
    const balance = await world.network.balance(s.outsideAddress);
    if (balance.stableMlx + balance.unstableMlx > 0n) count += 1;
  }
  return count;
}

describe('settlement across a Redis loss', () => {
  it('given sends partly settled, when Redis is flushed and the pipeline restarts, then each reservation is posted or voided exactly once and the audit is clean', async () => {
    await redis.flushall();
    const world: WalletWorld = await openWalletWorld({ confirmDelayMs: 200 });
    const log = captureLog();
    const start = (): WalletPipeline =>
      startWalletPipeline({ world, redis, redisUrl: server.url, prefix: 'bull', logger: log.logger, workers: { concurrency: 2 } });
    let pipeline: WalletPipeline | undefined;
    try {
      const payers = [await world.openUser(10_000_000n), await world.openUser(10_000_000n), await world.openUser(10_000_000n)];
      const payee = await world.openUser();
      const feeAddress = (await loadWallet(world.deps, SYSTEM_WALLET_IDS.fee)).state.wallet?.address ?? '';
      const sends: Send[] = [];
      const send = async (i: number) => {
        const payer = payers[i % payers.length];
        if (!payer) throw new Error('no payer');
        // A third internal settled at once, a third external, a third internal reservations recorded the
        // way they were before atomic settlement (ADR 019), every sixth of those to the fee account (voided).
        const kind = i % 6 === 5 ? 'fee' : i % 3;
        const outsideAddress = kind === 1 ? world.outsideAddress() : undefined;
        const amountMlx = BigInt(1_000 + i);
        if (kind === 'fee' || kind === 2) {
          const toWalletId = kind === 'fee' ? SYSTEM_WALLET_IDS.fee : payee.walletId;
          const transferId = randomUUID();
          await executeWalletCommand(world.deps, payer.walletId, {
            type: 'ReserveTransfer',
            data: { transferId, toAddress: kind === 'fee' ? feeAddress : payee.address, toWalletId, amountMlx, feeMlx: SEND_FEE_MLX },
          });
          sends.push({ payerId: payer.walletId, transferId, payeeId: kind === 'fee' ? undefined : payee.walletId, atOnce: false });
          return;
        }
        const { transferId } = await sendMlx(world.deps, payer.walletId, {
          to: { kind: 'address', address: outsideAddress ?? payee.address },
          amount: amountMlx,
          fee: SEND_FEE_MLX,
        });
        sends.push({
          payerId: payer.walletId,
          transferId,
          outsideAddress,
          payeeId: outsideAddress ? undefined : payee.walletId,
          atOnce: !outsideAddress,
        });
      };
      for (let i = 0; i < SENDS / 2; i += 1) await send(i);
      pipeline = start();
      for (let i = SENDS / 2; i < SENDS; i += 1) await send(i);

      const settledCount = async () => {
        const statuses = await Promise.all(sends.map((s) => world.transferStatus(s.payerId, s.transferId)));
        return statuses.filter((status) => status !== 'reserved').length;
      };
      const atOnce = sends.filter((s) => s.atOnce).length;
      // The sends settled at once are settled already; wait for some of the others.
      expect(await settledCount()).toBeGreaterThanOrEqual(atOnce);
      await eventually(async () => (await settledCount()) >= atOnce + 4, 15_000, 'some sends settle through jobs');
      await redis.flushall();
      await pipeline.stop();
      pipeline = undefined;
      const settledBeforeRestart = await settledCount();
      expect(settledBeforeRestart).toBeLessThan(SENDS);
      // The flush must have caught external sends between their network submission and their post.
      const inFlight = await sendsInFlight(world, sends);
      expect(inFlight).toBeGreaterThan(0);

      pipeline = start();
      await eventually(async () => (await settledCount()) === SENDS, 30_000, 'every send settles');
      // Exactly the open reservations were re-derived: nothing settled (nor settled at once) was enqueued again.
      expect(pipeline.dispatcher.status()).toMatchObject({ rederivations: 1, enqueuedJobs: SENDS - settledBeforeRestart });
      // Give a wrongly re-enqueued job the time to run and show up as a second outcome.
      await new Promise((resolve) => setTimeout(resolve, 500));

      for (const s of sends) {
        const outcomes = (await world.events(s.payerId)).filter(
          (e) => (e.type === 'TransferPosted' || e.type === 'TransferVoided') && e.data.transferId === s.transferId,
        );
        expect(outcomes, s.transferId).toHaveLength(1);
        if (s.payeeId)
          expect((await world.events(s.payeeId, 'TransferCredited')).filter((e) => e.data.transferId === s.transferId)).toHaveLength(1);
        if (s.outsideAddress) {
          const balance = await world.network.balance(s.outsideAddress);
          expect(balance.stableMlx + balance.unstableMlx, s.outsideAddress).toBe(
            outcomes[0]?.type === 'TransferPosted' ? BigInt(1_000 + sends.indexOf(s)) : 0n,
          );
        }
      }
      const audit = await world.audit();
      expect(audit.violations).toEqual([]);
      expect(audit.transfers.open).toBe(0);
    } finally {
      await pipeline?.stop();
      await world.dispose();
    }
  });
});

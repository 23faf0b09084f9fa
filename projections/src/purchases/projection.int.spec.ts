// Proves the purchases read model on a real Redis: an order waits for its capture, a captured order for its credit (whatever its age), a credit or a refund before it closes the order, orders older than PayPal's approval window leave the capture set, capture claims and other events change nothing, and the queries answer by time, oldest first, bounded.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProjectionApplyError } from '../commit.js';
import { type CommittedLog, openCommittedLog } from '../../test/committed-log.js';
import { dumpKeys } from '../../test/redis-dump.js';
import { openPrivateRedis, type PrivateRedis } from '../../test/redis.js';
import { PAYPAL_APPROVAL_WINDOW_MS } from '@quern/core/purchases';
import { purchasesProjection } from './projection.js';
import { listPurchasesAwaitingCapture, listPurchasesAwaitingCredit } from './queries.js';

let redis: PrivateRedis;
let log: CommittedLog;

beforeAll(async () => {
  redis = await openPrivateRedis();
});
afterAll(async () => {
  await redis.stop();
});
beforeEach(async () => {
  await redis.redis.flushall();
  log = openCommittedLog(redis.redis, [purchasesProjection]);
});
afterEach(() => {
  log.close();
});

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const all = { fromMs: Number.NEGATIVE_INFINITY, toMs: Number.POSITIVE_INFINITY, limit: 100 };

const ordered = (orderId: string, ms = T0) => ({
  orderId,
  buyerUserId: 'alice',
  usdCents: '1000',
  usdPerMlx: '0.0000125',
  mlx: '800000',
  provider: 'paypal',
  orderedAt: at(ms),
});
const captured = (orderId: string, ms = T0 + 1_000) => ({
  orderId,
  captureId: `CAP${orderId}`,
  usdCents: '1000',
  capturedAt: at(ms),
  requestId: `${orderId}-c1`,
});

describe('purchases read model', () => {
  it('given an order, when captured and then credited, then it moves from awaiting capture to awaiting credit to neither', async () => {
    await log.apply('PurchaseOrdered', ordered('O1'));
    await log.apply('PurchaseCaptureRequested', { orderId: 'O1', requestId: 'O1-c1', requestedAt: at(T0) });
    expect(await listPurchasesAwaitingCapture(redis.redis, all)).toEqual(['O1']);
    expect(await listPurchasesAwaitingCredit(redis.redis, all)).toEqual([]);

    await log.apply('PurchaseCaptured', captured('O1'));
    expect(await listPurchasesAwaitingCapture(redis.redis, all)).toEqual([]);
    expect(await listPurchasesAwaitingCredit(redis.redis, all)).toEqual(['O1']);
    expect(await redis.redis.zscore('rm:purchases:awaiting-credit', 'O1')).toBe(String(T0 + 1_000));

    await log.apply('PurchaseCredited', {
      orderId: 'O1',
      captureId: 'CAPO1',
      transferId: 'purchase-CAPO1',
      mlx: '800000',
      creditedAt: at(T0),
    });
    await log.apply('PurchaseReceiptSent', { orderId: 'O1', messageId: '<m@x>', sentAt: at(T0) });
    expect(await listPurchasesAwaitingCredit(redis.redis, all)).toEqual([]);
    expect(await dumpKeys(redis.redis, 'rm:purchases:*')).toEqual({});
  });

  it('given a declined capture, when recorded, then the order still awaits its capture (the buyer may approve again)', async () => {
    await log.apply('PurchaseOrdered', ordered('O1'));
    await log.apply('PurchaseCaptureRequested', { orderId: 'O1', requestId: 'O1-c1', requestedAt: at(T0) });
    await log.apply('PurchaseCaptureFailed', { orderId: 'O1', issue: 'INSTRUMENT_DECLINED', description: 'no', failedAt: at(T0) });
    expect(await listPurchasesAwaitingCapture(redis.redis, all)).toEqual(['O1']);
  });

  it('given a refund before the credit, when recorded, then the order awaits nothing (the credit is refused from then on)', async () => {
    await log.apply('PurchaseOrdered', ordered('O1'));
    await log.apply('PurchaseCaptured', captured('O1'));
    await log.apply('PurchaseRefunded', {
      orderId: 'O1',
      captureId: 'CAPO1',
      refundId: 'RF1',
      usdCents: '1000',
      mlxReturned: '0',
      refundedAt: at(T0),
    });
    expect(await dumpKeys(redis.redis, 'rm:purchases:*')).toEqual({});
  });

  it('given orders older than the approval window when a new one comes, then they leave the capture set; a captured one stays awaiting credit', async () => {
    await log.apply('PurchaseOrdered', ordered('OLD', T0));
    await log.apply('PurchaseOrdered', ordered('OLD-CAPTURED', T0));
    await log.apply('PurchaseCaptured', captured('OLD-CAPTURED', T0 + 1));
    await log.apply('PurchaseOrdered', ordered('EDGE', T0 + 10));
    await log.apply('PurchaseOrdered', ordered('NEW', T0 + 10 + PAYPAL_APPROVAL_WINDOW_MS));
    expect(await listPurchasesAwaitingCapture(redis.redis, all)).toEqual(['EDGE', 'NEW']);
    expect(await listPurchasesAwaitingCredit(redis.redis, all)).toEqual(['OLD-CAPTURED']);
  });

  it('given capture claims, wallet events and unknown events, when committed, then nothing is written', async () => {
    await log.apply('PurchaseCaptureClaimed', { captureId: 'CAP1', orderId: 'O1' });
    await log.apply('UserRegistered', { userId: 'u1' });
    await log.apply('SomethingElse', {});
    expect(await dumpKeys(redis.redis, 'rm:purchases:*')).toEqual({});
  });

  it('given a malformed purchase event, when committed, then it is refused (retried, never skipped) and writes nothing', async () => {
    await expect(log.commit(log.event('PurchaseOrdered', { orderId: 'bad:id' }))).rejects.toThrow(ProjectionApplyError);
    expect(await dumpKeys(redis.redis, 'rm:purchases:*')).toEqual({});
    expect(await log.checkpoint()).toBeNull();
  });

  it('given many orders, when listed by time range with a limit, then the oldest in range come first and the limit holds', async () => {
    for (let i = 0; i < 5; i++) await log.apply('PurchaseOrdered', ordered(`O${i}`, T0 + i * 1_000));
    expect(await listPurchasesAwaitingCapture(redis.redis, { fromMs: T0 + 1_000, toMs: T0 + 3_000, limit: 100 })).toEqual([
      'O1',
      'O2',
      'O3',
    ]);
    expect(await listPurchasesAwaitingCapture(redis.redis, { ...all, limit: 2 })).toEqual(['O0', 'O1']);
    await expect(listPurchasesAwaitingCapture(redis.redis, { ...all, limit: 0 })).rejects.toThrow(RangeError);
    await expect(listPurchasesAwaitingCredit(redis.redis, { ...all, fromMs: Number.NaN })).rejects.toThrow(RangeError);
  });
});

// Proves the credit job on a real log: it waits out the grace from the capture in BullMQ's delayed set (holding no worker), then moves the order's MLX once; a credit the browser made first, a refund before the credit, or a re-run moves nothing; a capture of another amount or a job without a capture fails for good; and the ledger audit stays clean.
import { systemClock } from '@quern/core';
import { purchaseStream, recordCaptureResult, recordRefund, ensurePurchaseCredited } from '@quern/core/purchases';
import { createLedgerAuditor } from '@quern/core/audit';
import { captureLog } from '@quern/test-support/log';
import { UnrecoverableError } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResumableJob } from '../job/resumable.js';
import { approvedOrder, ORDER_USD_CENTS, preparePurchases, registerBuyer } from '../../test/purchases.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { creditPurchaseAfterGrace } from './job.js';
import { transferTermsBook } from '@quern/core/transfer-references';

let temp: TempStore;
let buyerUserId: string;
const core = () => ({ store: temp.store, clock: systemClock, transferTerms: transferTermsBook });

beforeEach(async () => {
  temp = openTempStore();
  await preparePurchases(temp.store);
  buyerUserId = (await registerBuyer(temp.store, 1)).userId;
});
afterEach(async () => {
  await temp.dispose();
});

class Parked extends Error {}

/** A job as BullMQ gives it: the payload, and a way to park it in the delayed set (recorded here). */
function jobOf(data: Record<string, unknown>): ResumableJob & { parkedUntilMs: number | undefined } {
  const job = {
    data,
    parkedUntilMs: undefined as number | undefined,
    updateData: async () => {},
    runAgainAt: async (timestampMs: number): Promise<never> => {
      job.parkedUntilMs = timestampMs;
      throw new Parked();
    },
  };
  return job;
}

/** An approved order captured for `usdCents`; gives the job's payload. */
async function captured(orderId: string, usdCents = ORDER_USD_CENTS) {
  await approvedOrder(temp.store, buyerUserId, orderId);
  await recordCaptureResult(core(), { orderId, result: { status: 'completed', captureId: `CAP${orderId}`, usdCents } });
  const event = (await temp.store.readStream(purchaseStream(orderId))).find((e) => e.type === 'PurchaseCaptured');
  return { orderId, capturedAt: String(event?.data.capturedAt) };
}

const deps = (creditGraceMs: number) => ({ core: core(), logger: captureLog().logger, creditGraceMs });
const credits = async (orderId: string) =>
  (await temp.store.readStream(purchaseStream(orderId))).filter((e) => e.type === 'PurchaseCredited').length;

async function expectCleanAudit(): Promise<void> {
  const auditor = createLedgerAuditor();
  for (const e of await temp.store.readAll({ maxCount: 10_000 }))
    auditor.add({ streamId: e.streamId, type: e.type, data: e.data, position: e.position });
  expect(auditor.summary().violations).toEqual([]);
}

describe('credit job', () => {
  it('given a fresh capture, when the job runs within the grace, then it parks until the capture time plus the grace and credits nothing', async () => {
    const payload = await captured('ORDER1');
    const job = jobOf(payload);
    await expect(creditPurchaseAfterGrace(job, deps(60_000))).rejects.toBeInstanceOf(Parked);
    expect(job.parkedUntilMs).toBe(Date.parse(payload.capturedAt) + 60_000);
    expect(await credits('ORDER1')).toBe(0);
  });

  it('given the grace is over, when the job runs (twice), then the MLX moves once', async () => {
    const payload = await captured('ORDER1');
    const first = await creditPurchaseAfterGrace(jobOf(payload), deps(0));
    expect(first).toEqual({ outcome: 'credited', transferId: 'purchase-CAPORDER1' });
    expect(await creditPurchaseAfterGrace(jobOf(payload), deps(0))).toEqual({
      outcome: 'already-credited',
      transferId: 'purchase-CAPORDER1',
    });
    expect(await credits('ORDER1')).toBe(1);
    await expectCleanAudit();
  });

  it('given the browser claimed the credit within the grace, when the job runs, then it ends at once without waiting or moving anything', async () => {
    const payload = await captured('ORDER1');
    await ensurePurchaseCredited(core(), { orderId: 'ORDER1', buyerUserId });
    const job = jobOf(payload);
    expect(await creditPurchaseAfterGrace(job, deps(60_000))).toEqual({ outcome: 'already-credited', transferId: 'purchase-CAPORDER1' });
    expect(job.parkedUntilMs).toBeUndefined();
    expect(await credits('ORDER1')).toBe(1);
  });

  it('given a refund before the credit, when the job runs, then it ends without error and without a credit', async () => {
    const payload = await captured('ORDER1');
    await recordRefund(core(), { orderId: 'ORDER1', captureId: 'CAPORDER1', refundId: 'RF1', usdCents: ORDER_USD_CENTS });
    expect(await creditPurchaseAfterGrace(jobOf(payload), deps(0))).toEqual({ outcome: 'refunded' });
    expect(await credits('ORDER1')).toBe(0);
    await expectCleanAudit();
  });

  it('given a capture of another amount, or no capture at all, when the job runs, then it fails for good and moves nothing', async () => {
    const other = await captured('ORDER1', ORDER_USD_CENTS - 1n);
    await expect(creditPurchaseAfterGrace(jobOf(other), deps(0))).rejects.toBeInstanceOf(UnrecoverableError);
    await approvedOrder(temp.store, buyerUserId, 'ORDER2');
    await expect(creditPurchaseAfterGrace(jobOf({ orderId: 'ORDER2', capturedAt: other.capturedAt }), deps(0))).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    await expect(creditPurchaseAfterGrace(jobOf({ orderId: 'a:b', capturedAt: 'x' }), deps(0))).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await credits('ORDER1')).toBe(0);
    await expectCleanAudit();
  });
});

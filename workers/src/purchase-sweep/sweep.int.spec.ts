// Proves the purchase sweep on a real log with a scripted PayPal: it credits a captured order left uncredited past the grace, asks for the capture of an order approved at PayPal but never asked for, captures under its own id an approval left unanswered, records a capture PayPal completed that the log missed, leaves orders alone that PayPal has not approved, reads its open orders by time from the read model, and stops on close().
import { systemClock } from '@quern/core';
import { orderPurchase, PAYPAL_APPROVAL_WINDOW_MS, purchaseStream, recordCaptureResult } from '@quern/core/purchases';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../../test/pipeline.js';
import { approvedOrder, paypalOrder, preparePurchases, purchaseJobDeps, registerBuyer, ScriptedPayPal } from '../../test/purchases.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { type OpenPurchaseRange, type PurchaseSweep, startPurchaseSweep } from './sweep.js';
import { transferTermsBook } from '@quern/core/transfer-references';

let temp: TempStore;
let buyerUserId: string;
let sweep: PurchaseSweep | undefined;
const core = () => ({ store: temp.store, clock: systemClock, transferTerms: transferTermsBook });

beforeEach(async () => {
  temp = openTempStore();
  await preparePurchases(temp.store);
  buyerUserId = (await registerBuyer(temp.store, 1)).userId;
});
afterEach(async () => {
  await sweep?.close();
  sweep = undefined;
  await temp.dispose();
});

/** The read model as the sweep sees it: fixed sets of open orders, and the ranges it asked for. */
function openSets(awaitingCapture: string[], awaitingCredit: string[]) {
  const asked = { capture: [] as OpenPurchaseRange[], credit: [] as OpenPurchaseRange[] };
  return {
    asked,
    async awaitingCapture(range: OpenPurchaseRange) {
      asked.capture.push(range);
      return awaitingCapture.slice(0, range.limit);
    },
    async awaitingCredit(range: OpenPurchaseRange) {
      asked.credit.push(range);
      return awaitingCredit.slice(0, range.limit);
    },
  };
}

function start(paypal: ScriptedPayPal, open: ReturnType<typeof openSets>, creditGraceMs = 0, intervalMs = 20): PurchaseSweep {
  sweep = startPurchaseSweep({ deps: purchaseJobDeps(temp.store, paypal), openPurchases: open, intervalMs, creditGraceMs });
  return sweep;
}

const typesOf = async (orderId: string) => (await temp.store.readStream(purchaseStream(orderId))).map((e) => e.type);
const until = (orderId: string, type: string) =>
  eventually(async () => (await typesOf(orderId)).includes(type), 10_000, `${type} on ${orderId}`);

describe('purchase sweep', () => {
  it('given a captured order left uncredited past the grace, then the sweep credits it once', async () => {
    await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    await recordCaptureResult(core(), { orderId: 'ORDER1', result: { status: 'completed', captureId: 'CAP1', usdCents: 1000n } });
    const running = start(new ScriptedPayPal(), openSets([], ['ORDER1']));
    await until('ORDER1', 'PurchaseCredited');
    await eventually(() => running.status().sweeps >= 2, 10_000, 'another sweep');
    expect((await typesOf('ORDER1')).filter((t) => t === 'PurchaseCredited')).toHaveLength(1);
    expect(running.status()).toMatchObject({ running: true, credited: 1, lastError: undefined });
  });

  it('given an order approved at PayPal whose capture was never asked for, then the sweep asks for it (the capture job does the rest)', async () => {
    await orderPurchase(core(), { buyerUserId, usdCents: 1000n, orderId: 'ORDER1' });
    const paypal = new ScriptedPayPal([], [paypalOrder('ORDER1')]);
    // Sweeps far enough apart that the next one (which would capture the approval it now finds
    // unanswered, as the test below proves) cannot slip in before this one is checked on a busy machine.
    const running = start(paypal, openSets(['ORDER1'], []), 0, 1_000);
    await until('ORDER1', 'PurchaseCaptureRequested');
    await running.close();
    const [requested] = (await temp.store.readStream(purchaseStream('ORDER1'))).filter((e) => e.type === 'PurchaseCaptureRequested');
    expect(requested?.data.requestId).toBe('ORDER1-c1');
    expect(paypal.captures).toEqual([]);
  });

  it('given an approval left unanswered past the grace, then the sweep captures under that approval’s request id', async () => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const paypal = new ScriptedPayPal([paypalOrder('ORDER1', { id: 'CAP1', status: 'COMPLETED' })], [paypalOrder('ORDER1')]);
    start(paypal, openSets(['ORDER1'], []));
    await until('ORDER1', 'PurchaseCaptured');
    expect(paypal.captures[0]).toEqual({ orderId: 'ORDER1', requestId });
    const [captured] = (await temp.store.readStream(purchaseStream('ORDER1'))).filter((e) => e.type === 'PurchaseCaptured');
    expect(captured?.data).toMatchObject({ captureId: 'CAP1', requestId });
  });

  it('given PayPal completed a capture the log never heard of, then the sweep records an approval and the capture', async () => {
    await orderPurchase(core(), { buyerUserId, usdCents: 1000n, orderId: 'ORDER1' });
    const paypal = new ScriptedPayPal([], [paypalOrder('ORDER1', { id: 'CAP1', status: 'COMPLETED' })]);
    start(paypal, openSets(['ORDER1'], []));
    await until('ORDER1', 'PurchaseCaptured');
    expect(await typesOf('ORDER1')).toEqual(['PurchaseOrdered', 'PurchaseCaptureRequested', 'PurchaseCaptured']);
    expect(paypal.captures).toEqual([]);
  });

  it('given an order PayPal has not approved, then the sweep records nothing and asks PayPal about it less often', async () => {
    await orderPurchase(core(), { buyerUserId, usdCents: 1000n, orderId: 'ORDER1' });
    const paypal = new ScriptedPayPal([], [{ ...paypalOrder('ORDER1'), status: 'CREATED' }]);
    const running = start(paypal, openSets(['ORDER1'], []));
    await eventually(() => running.status().sweeps >= 8, 10_000, 'eight sweeps');
    // Pauses of 1, 2, 4, 8… intervals between looks: eight sweeps look about four times (fewer than
    // eight unless a sweep took longer than 64 intervals).
    const sweeps = running.status().sweeps;
    expect(paypal.gets.length).toBeGreaterThanOrEqual(1);
    expect(paypal.gets.length).toBeLessThan(sweeps);
    expect(await typesOf('ORDER1')).toEqual(['PurchaseOrdered']);
  });

  it('given the sweep running, then it reads orders awaiting capture within PayPal’s window and before the grace, credits before the grace, and stops on close()', async () => {
    const open = openSets([], []);
    const running = start(new ScriptedPayPal(), open, 15_000);
    await eventually(() => running.status().sweeps >= 1, 10_000, 'a sweep');
    const [capture] = open.asked.capture;
    const [credit] = open.asked.credit;
    expect(capture && capture.toMs - capture.fromMs).toBe(PAYPAL_APPROVAL_WINDOW_MS - 15_000);
    expect(credit?.fromMs).toBe(Number.NEGATIVE_INFINITY);
    expect(capture?.toMs).toBe(credit?.toMs);
    await running.close();
    expect(running.status().running).toBe(false);
  });
});

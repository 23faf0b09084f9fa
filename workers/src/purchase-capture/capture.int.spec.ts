// Proves the capture job on a real log against each answer PayPal gives: COMPLETED is recorded naming its approval, a 422 refusal is recorded with PayPal's issue, ORDER_ALREADY_CAPTURED reads the order and records its capture, PENDING records nothing, an unreachable or failing PayPal (and refused credentials) is thrown for BullMQ to retry, a re-run calls PayPal for nothing, the approval's request id is what PayPal gets, and malformed or unknown jobs fail for good.
import { PayPalError } from '@quern/adapters/paypal';
import { loadPurchase, purchaseStream } from '@quern/core/purchases';
import { UnrecoverableError } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvedOrder, paypalOrder, preparePurchases, purchaseJobDeps, registerBuyer, ScriptedPayPal } from '../../test/purchases.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { capturePurchase } from './job.js';

let temp: TempStore;
let buyerUserId: string;

beforeEach(async () => {
  temp = openTempStore();
  await preparePurchases(temp.store);
  buyerUserId = (await registerBuyer(temp.store, 1)).userId;
});
afterEach(async () => {
  await temp.dispose();
});

const typesOf = async (orderId: string) => (await temp.store.readStream(purchaseStream(orderId))).map((e) => e.type);
const refusal = (issue: string, description = 'PayPal says no') =>
  new PayPalError(422, 'UNPROCESSABLE_ENTITY', issue, description, 'dbg-1');

describe('capture job', () => {
  it('given PayPal captures COMPLETED, then PurchaseCaptured names the approval, PayPal got its request id, and a re-run calls PayPal for nothing', async () => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const paypal = new ScriptedPayPal([paypalOrder('ORDER1', { id: 'CAP1', status: 'COMPLETED' })]);
    const deps = purchaseJobDeps(temp.store, paypal);

    expect(await capturePurchase({ orderId: 'ORDER1', requestId }, deps)).toEqual({ outcome: 'captured', captureId: 'CAP1' });
    expect(paypal.captures).toEqual([{ orderId: 'ORDER1', requestId: 'ORDER1-c1' }]);
    const [captured] = (await temp.store.readStream(purchaseStream('ORDER1'))).filter((e) => e.type === 'PurchaseCaptured');
    expect(captured?.data).toMatchObject({ captureId: 'CAP1', usdCents: '1000', requestId });

    expect(await capturePurchase({ orderId: 'ORDER1', requestId }, deps)).toEqual({ outcome: 'already-captured' });
    expect(paypal.captures).toHaveLength(1);
  });

  it('given PayPal captured before a crash and the retry gets its first answer again, then the capture is recorded once', async () => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    // PayPal-Request-Id: the retry is answered with the first capture, not a second one.
    const paypal = new ScriptedPayPal([paypalOrder('ORDER1', { id: 'CAP1', status: 'COMPLETED' })]);
    const deps = purchaseJobDeps(temp.store, paypal);
    await Promise.all([capturePurchase({ orderId: 'ORDER1', requestId }, deps), capturePurchase({ orderId: 'ORDER1', requestId }, deps)]);
    expect((await typesOf('ORDER1')).filter((t) => t === 'PurchaseCaptured')).toHaveLength(1);
  });

  it.each([
    ['INSTRUMENT_DECLINED', 'The instrument presented was declined'],
    ['ORDER_NOT_APPROVED', 'Payer has not yet approved the Order'],
  ])(
    'given PayPal refuses with %s, then the failure is recorded with its issue; a re-run of the answered approval calls PayPal for nothing',
    async (issue, description) => {
      const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
      const paypal = new ScriptedPayPal([refusal(issue, description)]);
      const deps = purchaseJobDeps(temp.store, paypal);

      expect(await capturePurchase({ orderId: 'ORDER1', requestId }, deps)).toEqual({ outcome: 'declined', issue });
      const { state } = await loadPurchase(deps.core, 'ORDER1');
      expect(state.lastFailure).toEqual({ issue, description });
      const [failed] = (await temp.store.readStream(purchaseStream('ORDER1'))).filter((e) => e.type === 'PurchaseCaptureFailed');
      expect(failed?.data).toMatchObject({ issue, requestId });

      expect(await capturePurchase({ orderId: 'ORDER1', requestId }, deps)).toEqual({ outcome: 'already-answered' });
      expect(paypal.captures).toHaveLength(1);
    },
  );

  it('given ORDER_ALREADY_CAPTURED (captured under another request id), then the order is read and its capture recorded', async () => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const paypal = new ScriptedPayPal([refusal('ORDER_ALREADY_CAPTURED')], [paypalOrder('ORDER1', { id: 'CAP9', status: 'COMPLETED' })]);
    expect(await capturePurchase({ orderId: 'ORDER1', requestId }, purchaseJobDeps(temp.store, paypal))).toEqual({
      outcome: 'captured',
      captureId: 'CAP9',
    });
    expect(paypal.gets).toEqual(['ORDER1']);
  });

  it('given a PENDING capture, then nothing is recorded (the webhook or the sweep finishes it)', async () => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const paypal = new ScriptedPayPal([paypalOrder('ORDER1', { id: 'CAP1', status: 'PENDING' })]);
    expect(await capturePurchase({ orderId: 'ORDER1', requestId }, purchaseJobDeps(temp.store, paypal))).toEqual({ outcome: 'pending' });
    expect(await typesOf('ORDER1')).toEqual(['PurchaseOrdered', 'PurchaseCaptureRequested']);
  });

  it.each([
    ['unreachable', new PayPalError(0, 'NETWORK_ERROR', undefined, 'connect ECONNREFUSED', undefined)],
    ['failing (503)', new PayPalError(503, 'SERVICE_UNAVAILABLE', undefined, 'try later', 'dbg')],
    ['refusing our credentials (401)', new PayPalError(401, 'invalid_client', undefined, 'Client Authentication failed', undefined)],
    ['rate limiting (429)', new PayPalError(429, 'RATE_LIMIT_REACHED', undefined, 'Too many requests', 'dbg')],
  ])('given PayPal %s, then the job throws for BullMQ to retry and records nothing', async (_label, error) => {
    const requestId = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const deps = purchaseJobDeps(temp.store, new ScriptedPayPal([error]));
    await expect(capturePurchase({ orderId: 'ORDER1', requestId }, deps)).rejects.toBe(error);
    expect(await typesOf('ORDER1')).toEqual(['PurchaseOrdered', 'PurchaseCaptureRequested']);
  });

  it('given PayPal reporting a capture id another order recorded, then the job fails for good and records nothing', async () => {
    const first = await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const second = await approvedOrder(temp.store, buyerUserId, 'ORDER2');
    const paypal = new ScriptedPayPal([paypalOrder('ORDER1', { id: 'CAP1', status: 'COMPLETED' })]);
    await capturePurchase({ orderId: 'ORDER1', requestId: first }, purchaseJobDeps(temp.store, paypal));
    await expect(capturePurchase({ orderId: 'ORDER2', requestId: second }, purchaseJobDeps(temp.store, paypal))).rejects.toBeInstanceOf(
      UnrecoverableError,
    );
    expect(await typesOf('ORDER2')).toEqual(['PurchaseOrdered', 'PurchaseCaptureRequested']);
  });

  it('given a malformed payload, an unknown order or an approval the log never recorded, then the job fails for good without calling PayPal', async () => {
    await approvedOrder(temp.store, buyerUserId, 'ORDER1');
    const paypal = new ScriptedPayPal([]);
    const deps = purchaseJobDeps(temp.store, paypal);
    for (const data of [
      { orderId: 'a:b', requestId: 'r' },
      { orderId: 'ORDER1' },
      { orderId: 'NOPE', requestId: 'NOPE-c1' },
      { orderId: 'ORDER1', requestId: 'ORDER1-c9' },
    ])
      await expect(capturePurchase(data, deps)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(paypal.captures).toEqual([]);
  });
});

// Proves the purchase handlers on a real SQLite log: order → approval → capture → credit moves the order's MLX once (retries, 10 concurrent credits, the capture id instead of the order id), refuses made-up ids, someone else's order, another amount and uncaptured orders, survives a declined capture, takes MLX back on full and partial refunds and reversals as far as the buyer's balance allows, and leaves the ledger audit clean after each.
import { createKeyedSerializer, systemClock } from '@quern/core';
import {
  creditPurchase,
  ensurePurchaseCredited,
  orderPurchase,
  readPurchase,
  recordCaptureResult,
  recordRefund,
  recordReversal,
  requestCapture,
} from '@quern/core/purchases';
import {
  availableMlx,
  ensureSystemWallets,
  openUserWallet,
  readWallet,
  recordConfiguredExchangeRate,
  SEND_FEE_MLX,
  SYSTEM_WALLET_IDS,
  sendMlx,
  WalletStateCache,
} from '@quern/core/wallet';
import { openTempStore, type TempStore } from '@quern/test-support/temp-store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, walletDepsFor } from '../../test/ledger.js';

const RESERVE_MLX = 1_000_000_000n;
/** 10 USD at 0.000012 USD per MLX. */
const ORDER_MLX = 833_333n;

let temp: TempStore;
let deps: ReturnType<typeof walletDepsFor> & { serialize: ReturnType<typeof createKeyedSerializer>; stateCache: WalletStateCache };
beforeEach(async () => {
  temp = openTempStore('quern-purchases-');
  deps = { ...walletDepsFor(temp.store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
  await ensureSystemWallets(deps, { supplyMlx: 10_000_000_000n, reserveFundingMlx: RESERVE_MLX });
  await recordConfiguredExchangeRate({ store: temp.store, clock: systemClock }, '0.000012');
  await openUserWallet(deps, 'alice');
  await openUserWallet(deps, 'bob');
});
afterEach(async () => {
  await temp.dispose();
});

const balance = async (walletId: string) => availableMlx((await readWallet(deps, walletId)).state);
async function expectCleanAudit(): Promise<void> {
  const audit = await auditLog(temp.store);
  expect(audit.violations).toEqual([]);
  expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
}

/** An order of `usdCents` for alice, approved and captured COMPLETED. */
async function capturedOrder(orderId: string, usdCents = 1000n, buyerUserId = 'alice'): Promise<string> {
  await orderPurchase(deps, { buyerUserId, usdCents, orderId });
  await requestCapture(deps, { orderId, requestId: `req-${orderId}`, buyerUserId });
  const captureId = `CAP${orderId}`;
  await recordCaptureResult(deps, { orderId, result: { status: 'completed', captureId, usdCents } });
  return captureId;
}

describe('purchases', () => {
  it('given a captured order, when credited and credited again, then the MLX moved once and the retry is refused', async () => {
    const priced = await orderPurchase(deps, { buyerUserId: 'alice', usdCents: 1000n, orderId: 'O1' });
    expect(priced).toEqual({ orderId: 'O1', usdCents: 1000n, usdPerMlx: '0.000012', mlx: ORDER_MLX });
    await requestCapture(deps, { orderId: 'O1', requestId: 'req-O1', buyerUserId: 'alice' });
    await recordCaptureResult(deps, { orderId: 'O1', result: { status: 'completed', captureId: 'CAPO1', usdCents: 1000n } });
    const credit = await creditPurchase(deps, { orderId: 'O1', buyerUserId: 'alice', mlx: ORDER_MLX });
    expect(credit).toMatchObject({ transferId: 'purchase-CAPO1', mlx: ORDER_MLX, credited: true });
    await expect(creditPurchase(deps, { orderId: 'O1', buyerUserId: 'alice', mlx: ORDER_MLX })).rejects.toMatchObject({
      code: 'CONFLICT',
      messageKey: 'errors:purchaseAlreadyCredited',
    });
    // The worker's idempotent form answers with the same credit.
    expect(await ensurePurchaseCredited(deps, { orderId: 'O1' })).toMatchObject({ transferId: 'purchase-CAPO1', credited: false });
    expect(await balance('alice')).toBe(ORDER_MLX);
    expect(await balance(SYSTEM_WALLET_IDS.reserve)).toBe(RESERVE_MLX - ORDER_MLX);
    expect((await readPurchase(deps, 'O1', 'alice'))?.status).toBe('credited');
    expect(await readPurchase(deps, 'O1', 'bob')).toBeUndefined();
    const audit = await auditLog(temp.store);
    expect(audit.violations).toEqual([]);
    expect(audit.purchases).toMatchObject({ credited: 1, creditedMlx: ORDER_MLX });
  });

  it('given 10 concurrent credits of one order (two processes), when run, then exactly one moves MLX', async () => {
    await capturedOrder('O2');
    const other = { ...walletDepsFor(temp.store), serialize: createKeyedSerializer(), stateCache: new WalletStateCache() };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        creditPurchase(i % 2 === 0 ? deps : other, i % 3 === 0 ? { captureId: 'CAPO2' } : { orderId: 'O2' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'CONFLICT', messageKey: 'errors:purchaseAlreadyCredited' });
    expect(await balance('alice')).toBe(ORDER_MLX);
    await expectCleanAudit();
  });

  it('given made-up ids, someone else, another amount or an uncaptured order, when credited, then each is refused and nothing moves', async () => {
    await capturedOrder('O3');
    await orderPurchase(deps, { buyerUserId: 'alice', usdCents: 1000n, orderId: 'O4' });
    const refusals: Array<[Parameters<typeof creditPurchase>[1], string, string]> = [
      [{ orderId: 'NOPE', buyerUserId: 'alice' }, 'NOT_FOUND', 'errors:purchaseNotFound'],
      [{ captureId: 'NOPE' }, 'NOT_FOUND', 'errors:purchaseNotFound'],
      [{ orderId: 'O3', buyerUserId: 'bob' }, 'FORBIDDEN', 'errors:purchaseForbidden'],
      [{ orderId: 'O3', buyerUserId: 'alice', mlx: ORDER_MLX + 1n }, 'VALIDATION', 'errors:purchaseAmountMismatch'],
      [{ orderId: 'O4', buyerUserId: 'alice' }, 'CONFLICT', 'errors:purchaseNotCaptured'],
    ];
    for (const [input, code, messageKey] of refusals) await expect(creditPurchase(deps, input)).rejects.toMatchObject({ code, messageKey });
    expect(await balance('alice')).toBe(0n);
    await expectCleanAudit();
  });

  it('given a declined capture, when approved and captured again, then it is credited once', async () => {
    await orderPurchase(deps, { buyerUserId: 'alice', usdCents: 1000n, orderId: 'O5' });
    await requestCapture(deps, { orderId: 'O5', requestId: 'r1', buyerUserId: 'alice' });
    await recordCaptureResult(deps, { orderId: 'O5', result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: 'declined' } });
    await expect(creditPurchase(deps, { orderId: 'O5' })).rejects.toMatchObject({ messageKey: 'errors:purchaseNotCaptured' });
    expect((await readPurchase(deps, 'O5'))?.status).toBe('declined');
    await requestCapture(deps, { orderId: 'O5', requestId: 'r2', buyerUserId: 'alice' });
    await recordCaptureResult(deps, { orderId: 'O5', result: { status: 'completed', captureId: 'CAP5', usdCents: 1000n } });
    await creditPurchase(deps, { captureId: 'CAP5', buyerUserId: 'alice', mlx: ORDER_MLX });
    expect(await balance('alice')).toBe(ORDER_MLX);
    await expectCleanAudit();
  });

  it('given the same capture id reported for another order, when recorded, then refused', async () => {
    await capturedOrder('O6');
    await orderPurchase(deps, { buyerUserId: 'bob', usdCents: 1000n, orderId: 'O7' });
    await requestCapture(deps, { orderId: 'O7', requestId: 'r', buyerUserId: 'bob' });
    await expect(
      recordCaptureResult(deps, { orderId: 'O7', result: { status: 'completed', captureId: 'CAPO6', usdCents: 1000n } }),
    ).rejects.toMatchObject({ messageKey: 'errors:purchaseCaptureMismatch' });
  });

  it('given out-of-range amounts or a reserve below what 500 USD buys, when ordered, then refused with the spec messages', async () => {
    await expect(orderPurchase(deps, { buyerUserId: 'alice', usdCents: 50_001n, orderId: 'O8' })).rejects.toMatchObject({
      messageKey: 'errors:purchaseAmountOutOfRange',
    });
    await recordConfiguredExchangeRate({ store: temp.store, clock: systemClock }, '0.0000001');
    // 500 USD now buys 5,000,000,000 MLX, more than the reserve holds.
    await expect(orderPurchase(deps, { buyerUserId: 'alice', usdCents: 500n, orderId: 'O9' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      messageKey: 'errors:purchaseUnavailable',
    });
  });

  it('given a full refund, a partial refund, and a reversal, when recorded (twice), then the MLX returns to the reserve once each', async () => {
    await capturedOrder('R1');
    await creditPurchase(deps, { orderId: 'R1' });
    const full = await recordRefund(deps, { orderId: 'R1', captureId: 'CAPR1', refundId: 'RF1', usdCents: 1000n });
    expect(full).toMatchObject({ mlxReturned: ORDER_MLX, transferId: 'purchase-refund-RF1', recorded: true });
    expect(await recordRefund(deps, { orderId: 'R1', captureId: 'CAPR1', refundId: 'RF1', usdCents: 1000n })).toMatchObject({
      recorded: false,
    });
    expect(await balance('alice')).toBe(0n);

    await capturedOrder('R2');
    await creditPurchase(deps, { orderId: 'R2' });
    const partial = await recordRefund(deps, { orderId: 'R2', captureId: 'CAPR2', refundId: 'RF2', usdCents: 333n });
    expect(partial.mlxReturned).toBe(277_500n);
    expect(await balance('alice')).toBe(ORDER_MLX - 277_500n);
    const reversal = await recordReversal(deps, { orderId: 'R2', captureId: 'CAPR2', reversalId: 'RV2', usdCents: 667n });
    expect(reversal.mlxReturned).toBe(ORDER_MLX - 277_500n);
    expect(await balance('alice')).toBe(0n);
    expect((await readPurchase(deps, 'R2'))?.status).toBe('reversed');
    expect(await balance(SYSTEM_WALLET_IDS.reserve)).toBe(RESERVE_MLX);
    const audit = await auditLog(temp.store);
    expect(audit.violations).toEqual([]);
    expect(audit.purchases).toMatchObject({ credited: 2, returns: 3, returnedMlx: 2n * ORDER_MLX });
  });

  it('given a buyer who spent the MLX, when refunded, then only what is left returns, and history keeps the rest as spent', async () => {
    await capturedOrder('R3');
    await creditPurchase(deps, { orderId: 'R3' });
    const bob = (await readWallet(deps, 'bob')).state.wallet?.address as string;
    // Bought MLX can be sent once its hold (PURCHASE_HOLD_HOURS, 72 by default) is over.
    const afterHold = { ...deps, clock: { now: () => new Date(Date.now() + 73 * 3_600_000) } };
    await sendMlx(afterHold, 'alice', { to: { kind: 'address', address: bob }, amount: 800_000n, fee: SEND_FEE_MLX });
    const left = ORDER_MLX - 800_000n - SEND_FEE_MLX;
    const refund = await recordRefund(deps, { orderId: 'R3', captureId: 'CAPR3', refundId: 'RF3', usdCents: 1000n });
    expect(refund.mlxReturned).toBe(left);
    expect(await balance('alice')).toBe(0n);
    // Nothing left: a second refund moves nothing and names no transfer.
    await capturedOrder('R4');
    await creditPurchase(deps, { orderId: 'R4' });
    await sendMlx(afterHold, 'alice', { to: { kind: 'address', address: bob }, amount: ORDER_MLX - SEND_FEE_MLX, fee: SEND_FEE_MLX });
    const empty = await recordRefund(deps, { orderId: 'R4', captureId: 'CAPR4', refundId: 'RF4', usdCents: 500n });
    expect(empty).toMatchObject({ mlxReturned: 0n, recorded: true });
    expect(empty.transferId).toBeUndefined();
    await expectCleanAudit();
  });
});

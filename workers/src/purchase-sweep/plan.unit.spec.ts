// Proves what the sweep does with an open order, from the log's state and PayPal's answer (capture what was approved but never asked for, take over an approval left unanswered, record what PayPal completed, leave everything else), when it credits, and that it asks PayPal about one order less and less often.
import { foldPurchase, type PurchaseEvent } from '@quern/core/purchases';
import { describe, expect, it } from 'vitest';
import { LOOK_PAUSE_MAX_MS, LookBackoff } from './look-backoff.js';
import { creditIsDue, planCaptureSweep } from './plan.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(ms).toISOString();
const orderId = 'ORDER1';
const GRACE = 15_000;

const ordered: PurchaseEvent = {
  type: 'PurchaseOrdered',
  data: { orderId, buyerUserId: 'alice', usdCents: '1000', usdPerMlx: '0.0000125', mlx: '800000', provider: 'paypal', orderedAt: at(T0) },
};
const requested = (requestId: string, ms = T0): PurchaseEvent => ({
  type: 'PurchaseCaptureRequested',
  data: { orderId, requestId, requestedAt: at(ms) },
});
const failed: PurchaseEvent = {
  type: 'PurchaseCaptureFailed',
  data: { orderId, issue: 'INSTRUMENT_DECLINED', description: '', failedAt: at(T0), requestId: 'ORDER1-c1' },
};
const captured = (usdCents = '1000'): PurchaseEvent => ({
  type: 'PurchaseCaptured',
  data: { orderId, captureId: 'CAP1', usdCents, capturedAt: at(T0), requestId: 'ORDER1-c1' },
});
const credited: PurchaseEvent = {
  type: 'PurchaseCredited',
  data: { orderId, captureId: 'CAP1', transferId: 'purchase-CAP1', mlx: '800000', creditedAt: at(T0) },
};
const refunded: PurchaseEvent = {
  type: 'PurchaseRefunded',
  data: { orderId, captureId: 'CAP1', refundId: 'RF1', usdCents: '1000', mlxReturned: '0', refundedAt: at(T0) },
};

const approved = { status: 'APPROVED', captureStatus: undefined };
const completed = { status: 'COMPLETED', captureStatus: 'COMPLETED' };
const plan = (events: PurchaseEvent[], paypal: { status: string; captureStatus: string | undefined }, nowMs = T0 + 60_000) =>
  planCaptureSweep(foldPurchase(events), paypal, nowMs, GRACE);

describe('planCaptureSweep', () => {
  it('given an order approved at PayPal whose capture was never asked for, then the approval is recorded under the round id', () => {
    expect(plan([ordered], approved)).toEqual({ kind: 'request', requestId: 'ORDER1-c1' });
    // After a declined round, the buyer approved again: a new round.
    expect(plan([ordered, requested('ORDER1-c1'), failed], approved)).toEqual({ kind: 'request', requestId: 'ORDER1-c2' });
  });

  it('given an approval recorded but unanswered past the grace, then the sweep captures under its id; a recent one is left to its job', () => {
    expect(plan([ordered, requested('ORDER1-c1', T0)], approved, T0 + GRACE)).toEqual({ kind: 'capture', requestId: 'ORDER1-c1' });
    expect(plan([ordered, requested('ORDER1-c1', T0)], approved, T0 + GRACE - 1)).toEqual({ kind: 'none' });
  });

  it('given PayPal completed a capture the log does not know, then it is recorded (with an approval first when there is none)', () => {
    expect(plan([ordered], completed)).toEqual({ kind: 'record', requestFirst: 'ORDER1-c1' });
    expect(plan([ordered, requested('ORDER1-c1')], completed)).toEqual({ kind: 'record', requestFirst: undefined });
  });

  it.each([
    ['not approved yet', { status: 'CREATED', captureStatus: undefined }],
    ['a PENDING capture (the webhook finishes it)', { status: 'COMPLETED', captureStatus: 'PENDING' }],
    ['a VOIDED order', { status: 'VOIDED', captureStatus: undefined }],
  ])('given an order %s at PayPal, then nothing is done', (_label, paypal) => {
    expect(plan([ordered], paypal)).toEqual({ kind: 'none' });
  });

  it('given an order the log already captured, or no order, then nothing is done whatever PayPal says', () => {
    expect(plan([ordered, requested('ORDER1-c1'), captured()], completed)).toEqual({ kind: 'none' });
    expect(plan([], approved)).toEqual({ kind: 'none' });
  });
});

describe('creditIsDue', () => {
  it('given a capture of the ordered amount, neither credited nor refunded, then it is due; otherwise not', () => {
    expect(creditIsDue(foldPurchase([ordered, requested('ORDER1-c1'), captured()]))).toBe(true);
    expect(creditIsDue(foldPurchase([ordered, requested('ORDER1-c1'), captured(), credited]))).toBe(false);
    expect(creditIsDue(foldPurchase([ordered, requested('ORDER1-c1'), captured(), refunded]))).toBe(false);
    expect(creditIsDue(foldPurchase([ordered, requested('ORDER1-c1'), captured('999')]))).toBe(false);
    expect(creditIsDue(foldPurchase([ordered]))).toBe(false);
  });
});

describe('LookBackoff', () => {
  it('given an order looked at again and again, then the pause doubles from one interval up to an hour', () => {
    const backoff = new LookBackoff(60_000);
    expect(backoff.isDue('O', 0)).toBe(true);
    const pauses: number[] = [];
    let now = 0;
    for (let look = 0; look < 9; look++) {
      backoff.looked('O', now);
      const expected = Math.min(LOOK_PAUSE_MAX_MS, 60_000 * 2 ** look);
      // Due exactly when its pause is over, not a millisecond before.
      expect(backoff.isDue('O', now + expected - 1)).toBe(false);
      expect(backoff.isDue('O', now + expected)).toBe(true);
      pauses.push(expected);
      now += expected;
    }
    expect(pauses).toEqual([
      60_000,
      120_000,
      240_000,
      480_000,
      960_000,
      1_920_000,
      LOOK_PAUSE_MAX_MS,
      LOOK_PAUSE_MAX_MS,
      LOOK_PAUSE_MAX_MS,
    ]);
  });

  it('given orders that left the open set, when kept to the open ones, then they are forgotten', () => {
    const backoff = new LookBackoff(1_000);
    backoff.looked('A', 0);
    backoff.looked('B', 0);
    backoff.keepOnly(new Set(['B']));
    expect(backoff.size).toBe(1);
    expect(backoff.isDue('A', 0)).toBe(true);
    expect(backoff.isDue('B', 0)).toBe(false);
    expect(() => new LookBackoff(0)).toThrow(RangeError);
  });
});

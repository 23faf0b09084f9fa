// Proves the purchase decider: the server's price is recorded with the order, approvals and capture results are recorded once, a declined capture can be approved and captured again, and the credit and refund plans refuse made-up, foreign, uncaptured, mismatched and already credited orders and take back proportional MLX bounded by the buyer's balance.
import { describe, expect, it } from 'vitest';
import { parseExchangeRate } from '../wallet/money.js';
import { type PurchaseCommand, decidePurchase, planPurchaseCredit, planPurchaseReturn, purchaseReturnEvent } from './decider.js';
import { type PurchaseEvent, toPurchaseEvent } from './events.js';
import { type PurchaseState, captureRequestIdFor, evolvePurchase, foldPurchase, initialPurchaseState, purchaseStatusOf } from './state.js';

const NOW = new Date('2026-01-02T03:04:05.000Z');
const parsed = parseExchangeRate('0.000012');
if (!parsed.ok) throw new Error('rate');
const rate = parsed.rate;
const order: PurchaseCommand = {
  type: 'OrderPurchase',
  data: { orderId: 'ORDER1', buyerUserId: 'alice', usdCents: 1000n, rate, reserveAvailableMlx: 10n ** 12n },
};

/** Decides and folds through JSON, as the store returns events. */
function run(state: PurchaseState, command: PurchaseCommand): { state: PurchaseState; events: PurchaseEvent[] } {
  const { events } = decidePurchase(state, command, NOW);
  let next = state;
  for (const event of events) {
    const read = toPurchaseEvent(JSON.parse(JSON.stringify(event)));
    if (!read) throw new Error(`did not survive the wire: ${event.type}`);
    next = evolvePurchase(next, read);
  }
  return { state: next, events };
}
const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { code: (error as { code?: string }).code, messageKey: (error as { messageKey?: string }).messageKey };
  }
  return undefined;
};

function captured(usdCents = 1000n): PurchaseState {
  let state = run(initialPurchaseState(), order).state;
  state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'req1', buyerUserId: 'alice' } }).state;
  return run(state, {
    type: 'RecordCaptureResult',
    data: { orderId: 'ORDER1', result: { status: 'completed', captureId: 'CAP1', usdCents } },
  }).state;
}
const credited = (state: PurchaseState, mlx = 833_333n): PurchaseState =>
  evolvePurchase(state, {
    type: 'PurchaseCredited',
    data: { orderId: 'ORDER1', captureId: 'CAP1', transferId: 'purchase-CAP1', mlx: `${mlx}`, creditedAt: 'x' },
  });

describe('decidePurchase', () => {
  it('given 10 USD at 0.000012, when ordered, then the order, rate and MLX are recorded; a retry appends nothing, another amount conflicts', () => {
    const { state, events } = run(initialPurchaseState(), order);
    expect(events).toEqual([
      {
        type: 'PurchaseOrdered',
        data: {
          orderId: 'ORDER1',
          buyerUserId: 'alice',
          usdCents: '1000',
          usdPerMlx: '0.000012',
          mlx: '833333',
          provider: 'paypal',
          orderedAt: NOW.toISOString(),
        },
      },
    ]);
    expect(run(state, order).events).toEqual([]);
    expect(errorOf(() => run(state, { ...order, data: { ...order.data, usdCents: 2000n } }))?.code).toBe('CONFLICT');
  });

  it('given amounts outside 5–500 USD or a short reserve, when ordered, then refused with the spec messages', () => {
    expect(errorOf(() => run(initialPurchaseState(), { ...order, data: { ...order.data, usdCents: 499n } }))).toEqual({
      code: 'VALIDATION',
      messageKey: 'errors:purchaseAmountOutOfRange',
    });
    expect(errorOf(() => run(initialPurchaseState(), { ...order, data: { ...order.data, reserveAvailableMlx: 1n } }))).toEqual({
      code: 'UNAVAILABLE',
      messageKey: 'errors:purchaseUnavailable',
    });
  });

  it('given an approval from someone else, or of no order, when decided, then FORBIDDEN / NOT_FOUND', () => {
    const { state } = run(initialPurchaseState(), order);
    expect(
      errorOf(() => run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r', buyerUserId: 'bob' } }))?.code,
    ).toBe('FORBIDDEN');
    expect(errorOf(() => run(initialPurchaseState(), { type: 'RequestCapture', data: { orderId: 'X', requestId: 'r' } }))?.code).toBe(
      'NOT_FOUND',
    );
  });

  it('given a declined capture, when approved and captured again, then it is captured; a late failure report is refused', () => {
    let state = run(initialPurchaseState(), order).state;
    const complete = (captureId: string) =>
      ({ type: 'RecordCaptureResult', data: { orderId: 'ORDER1', result: { status: 'completed', captureId, usdCents: 1000n } } }) as const;
    expect(errorOf(() => run(state, complete('CAP1')))?.messageKey).toBe('errors:purchaseNotApproved');
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r1' } }).state;
    const declined = {
      type: 'RecordCaptureResult',
      data: { orderId: 'ORDER1', result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: 'no' } },
    } as const;
    state = run(state, declined).state;
    expect(purchaseStatusOf(state)).toBe('declined');
    expect(run(state, declined).events).toEqual([]);
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r2' } }).state;
    state = run(state, complete('CAP1')).state;
    expect(purchaseStatusOf(state)).toBe('captured');
    expect(run(state, complete('CAP1')).events).toEqual([]);
    expect(errorOf(() => run(state, complete('CAP2')))?.messageKey).toBe('errors:purchaseAlreadyCaptured');
    expect(errorOf(() => run(state, declined))?.messageKey).toBe('errors:purchaseAlreadyCaptured');
  });

  it('given results with and without the approval they answer, when decided, then each names its approval and the open one closes', () => {
    let state = run(initialPurchaseState(), order).state;
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r1' } }).state;
    expect(state.openCaptureRequest).toEqual({ requestId: 'r1', requestedAt: NOW.toISOString() });
    const failed = run(state, {
      type: 'RecordCaptureResult',
      data: { orderId: 'ORDER1', requestId: 'r1', result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: 'no' } },
    });
    expect(failed.events[0]?.data).toMatchObject({ requestId: 'r1', issue: 'INSTRUMENT_DECLINED' });
    expect(failed.state.openCaptureRequest).toBeUndefined();
    state = run(failed.state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r2' } }).state;
    // A webhook's result names no approval: it answers the open one.
    const completed = run(state, {
      type: 'RecordCaptureResult',
      data: { orderId: 'ORDER1', result: { status: 'completed', captureId: 'CAP1', usdCents: 1000n } },
    });
    expect(completed.events[0]?.data).toMatchObject({ requestId: 'r2', captureId: 'CAP1', capturedAt: NOW.toISOString() });
    expect(completed.state.openCaptureRequest).toBeUndefined();
    expect(completed.state.capture).toEqual({ captureId: 'CAP1', usdCents: 1000n, capturedAt: NOW.toISOString() });
  });

  it('given a late failure for an older approval (a re-run of its job), when decided, then the new round is not failed by it', () => {
    let state = run(initialPurchaseState(), order).state;
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r1' } }).state;
    const fail = (requestId: string) =>
      ({
        type: 'RecordCaptureResult',
        data: { orderId: 'ORDER1', requestId, result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: 'no' } },
      }) as const;
    state = run(state, fail('r1')).state;
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: 'r2' } }).state;
    expect(run(state, fail('r1')).events).toEqual([]);
    expect(run(state, fail('r2')).events).toHaveLength(1);
    expect(errorOf(() => run(state, fail('never-requested')))).toEqual({ code: 'CONFLICT', messageKey: 'errors:purchaseNotApproved' });
    expect(errorOf(() => run(state, fail('not:an-id')))?.code).toBe('VALIDATION');
  });

  it('given an old PurchaseCaptured without a request id, when read, then it still folds', () => {
    const old = toPurchaseEvent({
      type: 'PurchaseCaptured',
      data: { orderId: 'ORDER1', captureId: 'CAP1', usdCents: '1000', capturedAt: NOW.toISOString() },
    });
    expect(old?.type).toBe('PurchaseCaptured');
    expect(toPurchaseEvent({ type: 'PurchaseCaptured', data: { ...old?.data, requestId: 'a:b' } })).toBeUndefined();
  });
});

describe('decidePurchase: the receipt', () => {
  const receipt = { type: 'RecordReceiptSent', data: { orderId: 'ORDER1', messageId: '<purchase-receipt-ORDER1@quern.example>' } } as const;

  it('given a credited order, when its receipt is recorded twice, then it is recorded once', () => {
    const first = run(credited(captured()), receipt);
    expect(first.events).toEqual([{ type: 'PurchaseReceiptSent', data: { ...receipt.data, sentAt: NOW.toISOString() } }]);
    expect(first.state.receipt).toEqual({ messageId: receipt.data.messageId, sentAt: NOW.toISOString() });
    expect(run(first.state, receipt).events).toEqual([]);
  });

  it('given an order not credited, no order, or an empty message id, when its receipt is recorded, then refused', () => {
    expect(errorOf(() => run(captured(), receipt))).toEqual({ code: 'CONFLICT', messageKey: 'errors:purchaseNotCredited' });
    expect(errorOf(() => run(initialPurchaseState(), receipt))?.code).toBe('NOT_FOUND');
    expect(errorOf(() => run(credited(captured()), { ...receipt, data: { ...receipt.data, messageId: '' } }))?.code).toBe('VALIDATION');
  });
});

describe('planPurchaseCredit', () => {
  it('given a captured order, when planned, then the order MLX moves under a key derived from the capture', () => {
    expect(planPurchaseCredit(captured(), { buyerUserId: 'alice', mlx: 833_333n })).toEqual({
      kind: 'credit',
      plan: {
        orderId: 'ORDER1',
        captureId: 'CAP1',
        buyerUserId: 'alice',
        mlx: 833_333n,
        transferId: 'purchase-CAP1',
        idempotencyKey: 'purchase:CAP1',
      },
    });
  });

  it.each([
    ['no order', () => planPurchaseCredit(initialPurchaseState(), {}), 'NOT_FOUND', 'errors:purchaseNotFound'],
    ["someone else's", () => planPurchaseCredit(captured(), { buyerUserId: 'bob' }), 'FORBIDDEN', 'errors:purchaseForbidden'],
    ['a made-up capture', () => planPurchaseCredit(captured(), { captureId: 'MADEUP' }), 'NOT_FOUND', 'errors:purchaseNotFound'],
    ['uncaptured', () => planPurchaseCredit(run(initialPurchaseState(), order).state, {}), 'CONFLICT', 'errors:purchaseNotCaptured'],
    ['another amount asked', () => planPurchaseCredit(captured(), { mlx: 833_334n }), 'VALIDATION', 'errors:purchaseAmountMismatch'],
    ['another amount captured', () => planPurchaseCredit(captured(999n), {}), 'CONFLICT', 'errors:purchaseAmountMismatch'],
  ])('given %s, when planned, then refused', (_, plan, code, messageKey) => {
    expect(errorOf(plan)).toEqual({ code, messageKey });
  });

  it('given a credited order, when planned again, then it is reported as credited (nothing to move)', () => {
    expect(planPurchaseCredit(credited(captured()), {}).kind).toBe('alreadyCredited');
  });
});

describe('planPurchaseReturn', () => {
  const refund = (id: string, usdCents: bigint) => ({ kind: 'refund' as const, captureId: 'CAP1', id, usdCents });
  const mlxOf = (outcome: ReturnType<typeof planPurchaseReturn>) => (outcome.kind === 'return' ? outcome.plan.mlxReturned : -1n);

  it('given a full refund, when planned, then all credited MLX returns', () => {
    expect(mlxOf(planPurchaseReturn(credited(captured()), refund('R1', 1000n), 10n ** 9n))).toBe(833_333n);
  });

  it('given partial refunds, when planned, then MLX is proportional and rounded up; together they return exactly the credit', () => {
    let state = credited(captured());
    const first = planPurchaseReturn(state, refund('R1', 333n), 10n ** 9n);
    // 833,333 × 333 / 1000 = 277,499.889 → 277,500 (up: the buyer keeps no MLX for refunded money).
    expect(mlxOf(first)).toBe(277_500n);
    if (first.kind !== 'return') throw new Error('plan');
    state = evolvePurchase(state, purchaseReturnEvent(first.plan, NOW));
    expect(mlxOf(planPurchaseReturn(state, refund('R2', 667n), 10n ** 9n))).toBe(833_333n - 277_500n);
    expect(errorOf(() => planPurchaseReturn(state, refund('R3', 668n), 10n ** 9n))?.messageKey).toBe('errors:refundExceedsCapture');
    expect(planPurchaseReturn(state, refund('R1', 333n), 0n).kind).toBe('alreadyRecorded');
    expect(errorOf(() => planPurchaseReturn(state, refund('R1', 334n), 0n))?.code).toBe('CONFLICT');
  });

  it('given a buyer who spent the MLX, when refunded, then only what is available returns; a later refund makes up the rest', () => {
    let state = credited(captured());
    const first = planPurchaseReturn(state, refund('R1', 500n), 100n);
    expect(mlxOf(first)).toBe(100n);
    if (first.kind !== 'return') throw new Error('plan');
    state = evolvePurchase(state, purchaseReturnEvent(first.plan, NOW));
    expect(mlxOf(planPurchaseReturn(state, refund('R2', 500n), 10n ** 9n))).toBe(833_333n - 100n);
  });

  it('given a refund before the credit, when planned, then nothing moves and the credit is refused afterwards', () => {
    const plan = planPurchaseReturn(captured(), refund('R1', 1000n), 10n ** 9n);
    expect(mlxOf(plan)).toBe(0n);
    if (plan.kind !== 'return') throw new Error('plan');
    const event = purchaseReturnEvent(plan.plan, NOW);
    expect('transferId' in event.data).toBe(false);
    const state = evolvePurchase(captured(), event);
    expect(errorOf(() => planPurchaseCredit(state, {}))?.messageKey).toBe('errors:purchaseRefunded');
  });

  it('given another capture id, or an uncaptured order, when refunded, then refused', () => {
    expect(errorOf(() => planPurchaseReturn(credited(captured()), { ...refund('R1', 1n), captureId: 'CAP9' }, 0n))?.messageKey).toBe(
      'errors:purchaseCaptureMismatch',
    );
    expect(errorOf(() => planPurchaseReturn(run(initialPurchaseState(), order).state, refund('R1', 1n), 0n))?.messageKey).toBe(
      'errors:purchaseNotCaptured',
    );
  });

  it('given a reversal, when folded, then the status is reversed', () => {
    const plan = planPurchaseReturn(credited(captured()), { kind: 'reversal', captureId: 'CAP1', id: 'V1', usdCents: 1000n }, 10n ** 9n);
    if (plan.kind !== 'return') throw new Error('plan');
    const event = purchaseReturnEvent(plan.plan, NOW);
    expect(event.type).toBe('PurchaseReversed');
    expect(purchaseStatusOf(foldPurchase([...[], event]))).toBe('ordered');
    expect(purchaseStatusOf(evolvePurchase(credited(captured()), event))).toBe('reversed');
  });

  it('given a partial refund, when the capture is reversed for its whole amount, then only the rest is taken back, and a repeat of that report is the same reversal', () => {
    let state = credited(captured());
    const refunded = planPurchaseReturn(state, refund('R1', 400n), 10n ** 9n);
    if (refunded.kind !== 'return') throw new Error('plan');
    state = evolvePurchase(state, purchaseReturnEvent(refunded.plan, NOW));
    const reversal = { kind: 'reversal' as const, captureId: 'CAP1', id: 'V1', usdCents: 1000n };
    const reversed = planPurchaseReturn(state, reversal, 10n ** 9n);
    if (reversed.kind !== 'return') throw new Error('plan');
    expect(reversed.plan.usdCents).toBe(600n);
    expect(reversed.plan.mlxReturned).toBe(833_333n - refunded.plan.mlxReturned);
    state = evolvePurchase(state, purchaseReturnEvent(reversed.plan, NOW));
    expect(planPurchaseReturn(state, reversal, 10n ** 9n).kind).toBe('alreadyRecorded');
  });
});

describe('captureRequestIdFor', () => {
  it('given a pending approval, when asked again (double click), then the same id; after a decline, a new one', () => {
    let state = run(initialPurchaseState(), order).state;
    const first = captureRequestIdFor('ORDER1', state);
    state = run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: first, buyerUserId: 'alice' } }).state;
    expect(captureRequestIdFor('ORDER1', state)).toBe(first);
    state = run(state, {
      type: 'RecordCaptureResult',
      data: { orderId: 'ORDER1', result: { status: 'failed', issue: 'INSTRUMENT_DECLINED', description: 'declined' } },
    }).state;
    const second = captureRequestIdFor('ORDER1', state);
    expect(second).not.toBe(first);
    expect(run(state, { type: 'RequestCapture', data: { orderId: 'ORDER1', requestId: second } }).events).toHaveLength(1);
  });

  it('given the longest order id, then the id still fits the provider-id pattern', () => {
    const id = captureRequestIdFor('A'.repeat(64), { captureFailures: 11 });
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(id.endsWith('-c12')).toBe(true);
  });
});

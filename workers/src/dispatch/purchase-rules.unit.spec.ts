// Proves the purchase dispatch rules: an approval asks for one capture job per approval, a capture for one credit job per order, a credit for one receipt e-mail per order; each closes on the events that finish it (a result naming its approval; a credit or a refund before it; the receipt), re-derivation after a Redis loss finds exactly the open ones, and malformed requests are refused.
import { describe, expect, it } from 'vitest';
import { recorded } from '../../test/recorded.js';
import { OpenWork } from './open-work.js';
import { jobsRequestedBy } from '../job/dispatch-rule.js';
import { purchaseCaptureRule } from '../purchase-capture/rules.js';
import { purchaseCreditRule } from '../purchase-credit/rules.js';
import { purchaseReceiptEmailRule } from '../purchase-receipt-email/rules.js';
import { dispatchRules } from './rules.js';

const at = '2026-03-01T10:00:00.000Z';
const orderId = '5O190127TN364715T';
const requestId = `${orderId}-c1`;
let position = 0n;
const event = (type: string, data: Record<string, unknown>) => {
  position += 1n;
  return recorded(type, { orderId, ...data }, position);
};
const requested = (id = requestId) => event('PurchaseCaptureRequested', { requestId: id, requestedAt: at });
const captured = (data: Record<string, unknown> = {}) =>
  event('PurchaseCaptured', { captureId: 'CAP1', usdCents: '1000', capturedAt: at, requestId, ...data });
const failed = (data: Record<string, unknown> = {}) =>
  event('PurchaseCaptureFailed', { issue: 'INSTRUMENT_DECLINED', description: 'declined', failedAt: at, requestId, ...data });
const credited = () => event('PurchaseCredited', { captureId: 'CAP1', transferId: 'purchase-CAP1', mlx: '800000', creditedAt: at });
const refunded = () =>
  event('PurchaseRefunded', { captureId: 'CAP1', refundId: 'RF1', usdCents: '1000', mlxReturned: '0', refundedAt: at });
const receiptSent = () => event('PurchaseReceiptSent', { messageId: '<purchase-receipt@quern.test>', sentAt: at });

describe('purchaseCaptureRule', () => {
  it('given an approval, when dispatched, then one capture job per approval carries the order and the request id', () => {
    const request = requested();
    expect(jobsRequestedBy(request, dispatchRules)).toEqual([
      {
        queue: 'purchase-capture',
        name: 'capture-purchase',
        jobId: `purchase-capture-${orderId}-${requestId}`,
        data: { orderId, requestId },
        position: request.position,
      },
    ]);
    expect(purchaseCaptureRule.jobId(requested(`${orderId}-c2`))).toBe(`purchase-capture-${orderId}-${orderId}-c2`);
  });

  it('given a capture or a failure naming the approval, when matched, then it closes that approval job', () => {
    const jobId = purchaseCaptureRule.jobId(requested());
    expect(purchaseCaptureRule.matchCompletion(captured())).toBe(jobId);
    expect(purchaseCaptureRule.matchCompletion(failed())).toBe(jobId);
    expect(purchaseCaptureRule.matchCompletion(failed({ requestId: `${orderId}-c2` }))).not.toBe(jobId);
  });

  it('given a result recorded before results named their approval, when matched, then it closes no job', () => {
    const legacy = captured({ requestId: undefined });
    expect(purchaseCaptureRule.matchCompletion(legacy)).not.toBe(purchaseCaptureRule.jobId(requested()));
  });

  it.each([
    ['no request id', { requestId: undefined }],
    ['a request id with a colon', { requestId: 'a:b' }],
    ['no order id', { orderId: undefined }],
  ])('given an approval with %s, when dispatched, then it throws', (_label, data) => {
    expect(() => purchaseCaptureRule.jobId(event('PurchaseCaptureRequested', { requestId, requestedAt: at, ...data }))).toThrow();
  });
});

describe('purchaseCreditRule', () => {
  it('given a capture, when dispatched, then one credit job per order carries the capture time (the grace counts from it)', () => {
    const [job] = jobsRequestedBy(captured(), dispatchRules);
    expect(job).toMatchObject({
      queue: 'purchase-credit',
      name: 'credit-purchase',
      jobId: `purchase-credit-${orderId}`,
      data: { orderId, capturedAt: at },
    });
  });

  it.each([
    ['the credit', credited],
    ['a refund before the credit', refunded],
  ])('given %s, when matched, then it closes the credit job', (_label, completion) => {
    expect(purchaseCreditRule.matchCompletion(completion())).toBe(purchaseCreditRule.jobId(captured()));
  });
});

describe('purchaseReceiptEmailRule', () => {
  it('given a credit, when dispatched, then one receipt e-mail per order; the recorded receipt closes it', () => {
    const [job] = jobsRequestedBy(credited(), dispatchRules);
    expect(job).toMatchObject({ queue: 'purchase-receipt-email', jobId: `purchase-receipt-email-${orderId}`, data: { orderId } });
    expect(purchaseReceiptEmailRule.matchCompletion(receiptSent())).toBe(job?.jobId);
  });
});

describe('purchase work re-derived from the log', () => {
  const openAfter = (...events: ReturnType<typeof event>[]) => {
    const work = new OpenWork(dispatchRules, 100);
    for (const e of events) work.observe(e);
    return work.drain().map((job) => job.jobId);
  };

  it('given a purchase stopped between its capture and its credit (a crash), when re-derived, then only the credit job is open', () => {
    expect(openAfter(requested(), captured())).toEqual([`purchase-credit-${orderId}`]);
  });

  it('given a declined approval and a second one still open, when re-derived, then only the second capture is open', () => {
    expect(openAfter(requested(), failed(), requested(`${orderId}-c2`))).toEqual([`purchase-capture-${orderId}-${orderId}-c2`]);
  });

  it('given a finished purchase (credited, receipt sent), or one refunded before its credit, when re-derived, then nothing is open', () => {
    expect(openAfter(requested(), captured(), credited(), receiptSent())).toEqual([]);
    expect(openAfter(requested(), captured(), refunded())).toEqual([]);
  });

  it('given a credit without its receipt, when re-derived, then the receipt e-mail is open', () => {
    expect(openAfter(requested(), captured(), credited())).toEqual([`purchase-receipt-email-${orderId}`]);
  });
});

// Checkout passes over the refund events on an order's stream by their type names (ADR 067), so
// it needs nothing of refunds: the list it reads must name exactly the events refunds appends.
import { describe, expect, it } from 'vitest';
import { ORDER_STREAM_REFUND_EVENT_TYPES, isOrderStreamRefundType } from '../checkout/events.js';
import { isRefundEventType } from './events.js';

describe('refund events on an order stream', () => {
  it('given the types checkout passes over, then each is a refund event and CheckoutRefunded is among them', () => {
    for (const type of ORDER_STREAM_REFUND_EVENT_TYPES) expect(isRefundEventType(type)).toBe(true);
    expect(isOrderStreamRefundType('CheckoutRefunded')).toBe(true);
    expect(isOrderStreamRefundType('CheckoutPaid')).toBe(false);
  });
});

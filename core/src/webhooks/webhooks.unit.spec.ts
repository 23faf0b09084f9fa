// Proves the webhook domain rules: the retry schedule (about three days, then give up), the
// endpoint decisions (bound of 16, delete only a live one, only endpoints older than the source
// event get it), event subscriptions, delivery state (runs, attempts, status, redelivery refused
// while a run is open), stable delivery ids, and the payload shapes.
import { describe, expect, it } from 'vitest';
import { endpointWants, isWebhookEventType, SUBSCRIPTION_WEBHOOK_TYPES, WEBHOOK_EVENT_TYPES } from './catalogue.js';
import { evolveSubscription } from '../subscriptions/state.js';
import { toSubscriptionOutput } from '../subscriptions/contracts.js';
import { deliveryStatus, emptyWebhookDelivery, evolveWebhookDelivery, type WebhookDeliveryState } from './deliveries.js';
import { decideCreateEndpoint, decideDeleteEndpoint, decideRedelivery } from './decider.js';
import {
  checkWebhookEvents,
  emptyWebhookEndpoints,
  endpointLiveAt,
  evolveWebhookEndpoints,
  WEBHOOK_ENDPOINTS_MAX,
  type WebhookEndpointsState,
} from './endpoints.js';
import type { WebhookDeliveryEvent } from './events.js';
import { toWebhookEvent } from './events.js';
import { WEBHOOK_SECRET_PATTERN } from './handlers.js';
import { webhookDeliveryId, webhookFanOutId } from './ids.js';
import { payoutObjectOf, refundObjectOf } from './objects.js';
import { webhookBody, webhookPayloadSchema } from './payload.js';
import { attemptsOf, checkedSchedule, DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, nextAttemptDueMs } from './schedule.js';

const now = new Date('2026-11-24T12:00:00.000Z');
const secret = `whsec_${'A'.repeat(43)}=`;

describe('retry schedule', () => {
  it('spans about three days in ten attempts', () => {
    const totalH = DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(totalH).toBeGreaterThan(72);
    expect(totalH).toBeLessThan(80);
    expect(attemptsOf(DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS)).toBe(10);
  });

  it('makes the first attempt at once, each retry after its pause from the last start, and none after the last', () => {
    const schedule = [5_000, 300_000];
    expect(nextAttemptDueMs(schedule, 0, undefined)).toBe(0);
    expect(nextAttemptDueMs(schedule, 1, 1_000)).toBe(6_000);
    expect(nextAttemptDueMs(schedule, 2, 10_000)).toBe(310_000);
    expect(nextAttemptDueMs(schedule, 3, 10_000)).toBeUndefined();
  });

  it('refuses schedules that are empty, too long, negative, fractional or over a day a pause', () => {
    for (const bad of [[], Array(21).fill(1), [-1], [1.5], [86_400_001]]) expect(() => checkedSchedule(bad)).toThrow(RangeError);
    expect(checkedSchedule([0, 1])).toEqual([0, 1]);
  });
});

describe('endpoints', () => {
  const created = (state: WebhookEndpointsState, n: number, position: bigint) =>
    evolveWebhookEndpoints(
      state,
      decideCreateEndpoint(state, {
        endpointId: `we_${String(n).padStart(32, '0')}`,
        merchantUserId: 'm',
        url: 'https://e.com/',
        events: [],
        secret,
        now,
      }),
      position,
    );

  it(`allows ${WEBHOOK_ENDPOINTS_MAX} live endpoints, then refuses (422) until one is deleted`, () => {
    let state = emptyWebhookEndpoints();
    for (let n = 0; n < WEBHOOK_ENDPOINTS_MAX; n++) state = created(state, n, BigInt(n));
    expect(() => created(state, 99, 99n)).toThrow(expect.objectContaining({ code: 'UNPROCESSABLE' }));
    state = evolveWebhookEndpoints(
      state,
      decideDeleteEndpoint(state, { endpointId: `we_${'0'.repeat(32)}`, merchantUserId: 'm', now }),
      100n,
    );
    expect(() => created(state, 99, 101n)).not.toThrow();
  });

  it('deletes only a live endpoint of the merchant (404 otherwise, twice included)', () => {
    let state = created(emptyWebhookEndpoints(), 1, 5n);
    const id = `we_${'1'.padStart(32, '0')}`;
    state = evolveWebhookEndpoints(state, decideDeleteEndpoint(state, { endpointId: id, merchantUserId: 'm', now }), 9n);
    expect(() => decideDeleteEndpoint(state, { endpointId: id, merchantUserId: 'm', now })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('delivers a source event only to endpoints created before it and not deleted before it', () => {
    let state = created(emptyWebhookEndpoints(), 1, 5n);
    const id = `we_${'1'.padStart(32, '0')}`;
    state = evolveWebhookEndpoints(state, decideDeleteEndpoint(state, { endpointId: id, merchantUserId: 'm', now }), 9n);
    const [endpoint] = state.endpoints;
    if (!endpoint) throw new Error('no endpoint');
    expect([4n, 5n, 6n, 8n, 9n, 10n].map((p) => endpointLiveAt(endpoint, p))).toEqual([false, false, true, true, false, false]);
  });

  it('subscriptions: none means all; listed means only those; unknown names are a 400', () => {
    expect(endpointWants([], 'payout.completed')).toBe(true);
    expect(endpointWants(['order.paid'], 'order.paid')).toBe(true);
    expect(endpointWants(['order.paid'], 'refund.succeeded')).toBe(false);
    expect(checkWebhookEvents(['refund.succeeded', 'order.paid', 'order.paid'])).toEqual(['refund.succeeded', 'order.paid']);
    expect(() => checkWebhookEvents(['order.shipped'])).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });

  it('secrets are whsec_ and the base64 of 24 to 64 bytes', () => {
    expect(WEBHOOK_SECRET_PATTERN.test(secret)).toBe(true);
    expect(WEBHOOK_SECRET_PATTERN.test(`whsec_${'A'.repeat(32)}`)).toBe(true);
    expect(WEBHOOK_SECRET_PATTERN.test(`whsec_${'A'.repeat(20)}`)).toBe(false);
    expect(WEBHOOK_SECRET_PATTERN.test(`whsk_${'A'.repeat(44)}`)).toBe(false);
  });
});

describe('deliveries', () => {
  const deliveryId = webhookDeliveryId('we_1', { streamId: 'checkout-x', revision: 3n });
  const fold = (events: WebhookDeliveryEvent[]): WebhookDeliveryState => events.reduce(evolveWebhookDelivery, emptyWebhookDelivery());
  const scheduled: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryScheduled',
    data: {
      deliveryId,
      endpointId: `we_${'1'.repeat(32)}`,
      merchantUserId: 'm',
      eventType: 'order.paid',
      body: '{}',
      sourceStreamId: 'checkout-x',
      sourceRevision: '3',
      scheduledAt: now.toISOString(),
    },
  };
  const attempted = (run: number, attempt: number, delivered: boolean): WebhookDeliveryEvent => ({
    type: 'WebhookDeliveryAttempted',
    data: { deliveryId, run, attempt, startedAt: now.toISOString(), durationMs: 12, statusCode: delivered ? 200 : 500, delivered },
  });

  it('ids are stable digests of endpoint and source event, and differ when either differs', () => {
    expect(deliveryId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(webhookDeliveryId('we_1', { streamId: 'checkout-x', revision: 3n })).toBe(deliveryId);
    expect(webhookDeliveryId('we_2', { streamId: 'checkout-x', revision: 3n })).not.toBe(deliveryId);
    expect(webhookDeliveryId('we_1', { streamId: 'checkout-x', revision: 4n })).not.toBe(deliveryId);
    expect(webhookFanOutId({ streamId: 'checkout-x', revision: 3n })).toMatch(/^[0-9a-f]{32}$/);
  });

  it('a run is pending until it succeeds or fails; a redelivery opens run 1 and is refused while open', () => {
    let state = fold([scheduled, attempted(0, 1, false)]);
    expect(deliveryStatus(state)).toBe('pending');
    expect(() => decideRedelivery(state, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    state = fold([
      scheduled,
      attempted(0, 1, false),
      attempted(0, 2, true),
      { type: 'WebhookDeliverySucceeded', data: { deliveryId, run: 0, deliveredAt: now.toISOString() } },
    ]);
    expect(deliveryStatus(state)).toBe('delivered');
    const again = decideRedelivery(state, now);
    expect(again.data).toEqual({ deliveryId, run: 1, requestedAt: now.toISOString() });
    state = evolveWebhookDelivery(state, again);
    expect(deliveryStatus(state)).toBe('pending');
    state = evolveWebhookDelivery(state, {
      type: 'WebhookDeliveryFailed',
      data: { deliveryId, run: 1, reason: 'attempts_exhausted', failedAt: now.toISOString() },
    });
    expect(deliveryStatus(state)).toBe('failed');
    expect(state.runs.map((r) => r.attempts.length)).toEqual([2, 0]);
  });

  it('a delivery that was never scheduled cannot be redelivered (404)', () => {
    expect(() => decideRedelivery(emptyWebhookDelivery(), now)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });

  it('the reader refuses malformed events', () => {
    expect(toWebhookEvent({ type: 'WebhookDeliveryAttempted', data: { deliveryId, run: -1 } })).toBeUndefined();
    expect(toWebhookEvent(scheduled)).toEqual(scheduled);
  });
});

describe('payloads', () => {
  it('order.paid, refund.succeeded and payout.completed bodies have the documented shape', () => {
    const order = {
      id: 'o',
      status: 'paid' as const,
      amount: '5',
      amount_refunded: '0',
      currency: 'MLX' as const,
      rate: null,
      shopper_username: 's',
      reference: null,
      created_at: 't',
    };
    const refund = refundObjectOf({ refundId: `re_${'a'.repeat(32)}`, orderId: 'o', mlx: '3', refundedAt: 't' });
    const payout = payoutObjectOf({ payoutId: `po_${'b'.repeat(32)}`, to: 'bob', mlx: '7', feeMlx: '1000', requestedAt: 't' });
    const bodies = [
      webhookBody({ type: 'order.paid', data: order }, 't0', 'sandbox'),
      webhookBody({ type: 'refund.succeeded', data: refund }, 't1', 'sandbox'),
      webhookBody({ type: 'payout.completed', data: payout }, 't2', 'live'),
    ].map((b) => JSON.parse(b));
    for (const body of bodies) expect(webhookPayloadSchema.safeParse(body).success).toBe(true);
    expect(bodies[1]).toEqual({
      type: 'refund.succeeded',
      timestamp: 't1',
      livemode: false,
      data: {
        id: `re_${'a'.repeat(32)}`,
        object: 'refund',
        order: 'o',
        amount: '3',
        currency: 'MLX',
        status: 'succeeded',
        created_at: 't',
        livemode: false,
      },
    });
    // A live Quern's body says so, on the payload and on its object.
    expect(bodies[2].livemode).toBe(true);
    expect(bodies[2].data).toEqual({
      id: `po_${'b'.repeat(32)}`,
      object: 'payout',
      to: 'bob',
      amount: '7',
      fee: '1000',
      currency: 'MLX',
      status: 'completed',
      created_at: 't',
      livemode: true,
    });
  });
});

describe('subscription webhooks (issue 13)', () => {
  const started = evolveSubscription(
    undefined,
    {
      type: 'SubscriptionStarted',
      data: {
        subscriptionId: `sub_${'a'.repeat(24)}`,
        period: 1,
        attempt: 1,
        priceMlx: '250000',
        transferId: `subscription-sub_${'a'.repeat(24)}-1`,
        chargedAt: '2026-01-31T10:00:00.000Z',
        paidThrough: '2026-02-28T10:00:00.000Z',
        billingDay: 31,
        planId: '00000000-0000-4000-8000-000000000001',
        providerUserId: 'provider',
        subscriberUserId: 'subscriber',
        generation: 1,
        planName: 'Gold',
      },
    },
    0n,
  );

  it('the catalogue holds the four subscription types, and an endpoint with no list gets them', () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining([...SUBSCRIPTION_WEBHOOK_TYPES]));
    expect(SUBSCRIPTION_WEBHOOK_TYPES).toEqual([
      'subscription.created',
      'subscription.renewed',
      'subscription.past_due',
      'subscription.cancelled',
    ]);
    for (const type of SUBSCRIPTION_WEBHOOK_TYPES) {
      expect(isWebhookEventType(type)).toBe(true);
      expect(endpointWants([], type)).toBe(true);
      expect(endpointWants(['order.paid'], type)).toBe(false);
    }
    expect(isWebhookEventType('subscription.deleted')).toBe(false);
  });

  it('each body carries the subscription object and passes the payload schema; a wrong shape does not', () => {
    if (!started) throw new Error('no subscription');
    const data = toSubscriptionOutput(started);
    for (const type of SUBSCRIPTION_WEBHOOK_TYPES) {
      const body = JSON.parse(webhookBody({ type, data }, '2026-01-31T10:00:00.000Z', 'sandbox'));
      expect(body).toEqual({ type, timestamp: '2026-01-31T10:00:00.000Z', livemode: false, data: { ...data, livemode: false } });
      expect(webhookPayloadSchema.safeParse(body).success).toBe(true);
      // A body without livemode is not a payload.
      const { livemode: _livemode, ...withoutLivemode } = body;
      expect(webhookPayloadSchema.safeParse(withoutLivemode).success).toBe(false);
    }
    expect(data).toMatchObject({
      id: `sub_${'a'.repeat(24)}`,
      object: 'subscription',
      status: 'active',
      price: '250000',
      provider_id: 'provider',
    });
    const wrong = { type: 'subscription.renewed', timestamp: 't', data: { ...data, object: 'order' } };
    expect(webhookPayloadSchema.safeParse(wrong).success).toBe(false);
  });
});

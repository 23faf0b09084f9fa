// Proves the test event's decision (ADR 060): a WebhookDeliveryScheduled for that endpoint only,
// typed test.ping, its body the shape of every webhook with `livemode` as the mode says (false in a
// sandbox, true live) and naming the delivery and the endpoint; a fresh nonce makes a fresh
// delivery id; the recorded event reads back through the tolerant reader.
import { describe, expect, it } from 'vitest';
import { toWebhookEvent } from './events.js';
import { decideWebhookTest } from './test-event.js';

const ENDPOINT = `we_${'a'.repeat(32)}`;
const base = { merchantUserId: 'merchant-1', endpointId: ENDPOINT, now: new Date('2026-11-27T10:00:00.000Z'), endpointsRevision: 3n };

describe('decideWebhookTest', () => {
  it('given an endpoint, then it schedules a test.ping delivery to it, with the body every webhook has', () => {
    const scheduled = decideWebhookTest({ ...base, nonce: 'n-1', mode: 'sandbox' });
    expect(scheduled.data).toMatchObject({
      endpointId: ENDPOINT,
      merchantUserId: 'merchant-1',
      eventType: 'test.ping',
      sourceStreamId: 'webhook-endpoints-merchant-1',
      sourceRevision: '3',
      scheduledAt: '2026-11-27T10:00:00.000Z',
    });
    expect(scheduled.data.deliveryId).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(JSON.parse(scheduled.data.body)).toEqual({
      type: 'test.ping',
      timestamp: '2026-11-27T10:00:00.000Z',
      livemode: false,
      data: { id: scheduled.data.deliveryId, object: 'test_event', endpoint: ENDPOINT, livemode: false },
    });
    expect(toWebhookEvent(scheduled)).toEqual(scheduled);
  });

  it('given a live Quern, then livemode is true; given another nonce, then another delivery', () => {
    const live = decideWebhookTest({ ...base, nonce: 'n-1', mode: 'live' });
    expect(JSON.parse(live.data.body)).toMatchObject({ livemode: true, data: { livemode: true } });
    expect(decideWebhookTest({ ...base, nonce: 'n-2', mode: 'live' }).data.deliveryId).not.toBe(live.data.deliveryId);
  });
});

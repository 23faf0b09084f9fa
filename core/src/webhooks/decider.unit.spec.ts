// Proves the webhook decisions not covered in webhooks.unit.spec.ts: a rotation only of a live
// endpoint, and what an attempt or an abandoned run records (the attempt; the run's success, or
// its failure when it was the last attempt; nothing more otherwise).
import { describe, expect, it } from 'vitest';
import { decideAbandonRun, decideAttempt, decideCreateEndpoint, decideRotateSecret } from './decider.js';
import { emptyWebhookEndpoints, evolveWebhookEndpoints } from './endpoints.js';

const now = new Date('2026-11-24T12:00:00.000Z');
const started = new Date('2026-11-24T11:59:59.000Z');
const deliveryId = `msg_${'1'.repeat(32)}`;
const endpointId = `we_${'2'.repeat(32)}`;
const secret = `whsec_${'A'.repeat(43)}=`;

describe('rotating a secret', () => {
  it('rotates a live endpoint, and refuses an unknown one with 404', () => {
    const created = decideCreateEndpoint(emptyWebhookEndpoints(), {
      endpointId,
      merchantUserId: 'm',
      url: 'https://x.test/h',
      events: [],
      secret,
      now,
    });
    const state = evolveWebhookEndpoints(emptyWebhookEndpoints(), created, 5n);
    const next = `whsec_${'B'.repeat(43)}=`;
    expect(decideRotateSecret(state, { endpointId, merchantUserId: 'm', secret: next, now })).toEqual({
      type: 'WebhookEndpointSecretRotated',
      data: { endpointId, merchantUserId: 'm', secret: next, rotatedAt: now.toISOString() },
    });
    expect(() => decideRotateSecret(state, { endpointId: `we_${'3'.repeat(32)}`, merchantUserId: 'm', secret: next, now })).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND', messageKey: 'errors:webhookEndpointNotFound' }),
    );
  });
});

describe('recording attempts', () => {
  const attempt = { deliveryId, run: 0, attempt: 2, startedAt: started, durationMs: 12.6, lastAttempt: false };

  it('a delivered attempt ends its run as succeeded', () => {
    expect(decideAttempt({ ...attempt, statusCode: 204, delivered: true }, now)).toEqual([
      {
        type: 'WebhookDeliveryAttempted',
        data: { deliveryId, run: 0, attempt: 2, startedAt: started.toISOString(), durationMs: 13, statusCode: 204, delivered: true },
      },
      { type: 'WebhookDeliverySucceeded', data: { deliveryId, run: 0, deliveredAt: now.toISOString() } },
    ]);
  });

  it('a failed attempt records only itself, unless it was the last: then the run fails', () => {
    const failed = { ...attempt, error: 'timeout', responseExcerpt: '', delivered: false };
    expect(decideAttempt(failed, now).map((e) => e.type)).toEqual(['WebhookDeliveryAttempted']);
    expect(decideAttempt(failed, now)[0]?.data).not.toHaveProperty('responseExcerpt');
    expect(decideAttempt({ ...failed, lastAttempt: true }, now)[1]).toEqual({
      type: 'WebhookDeliveryFailed',
      data: { deliveryId, run: 0, reason: 'attempts_exhausted', failedAt: now.toISOString() },
    });
  });

  it('an abandoned run fails with its reason', () => {
    expect(decideAbandonRun({ deliveryId, run: 1, reason: 'endpoint_deleted' }, now)).toEqual({
      type: 'WebhookDeliveryFailed',
      data: { deliveryId, run: 1, reason: 'endpoint_deleted', failedAt: now.toISOString() },
    });
  });
});

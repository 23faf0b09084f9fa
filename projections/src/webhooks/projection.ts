/**
 * The webhooks read model: each endpoint's deliveries, newest last, so the delivery log pages by
 * cursor without scanning the log. Only the ids are kept (the attempts are read from each
 * delivery's own short stream), and only the latest WEBHOOK_DELIVERIES_KEPT per endpoint: the
 * delivery streams themselves stay in the log for good.
 */
import type { RecordedEvent } from '@quern/core';
import { toWebhookEvent } from '@quern/core/webhooks';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { webhookDeliveriesKey } from './keys.js';

export const WEBHOOK_DELIVERIES_KEPT = 1_000;

export const webhooksProjection: Projection = {
  name: 'webhooks',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (event.type !== 'WebhookDeliveryScheduled') return;
    const scheduled = toWebhookEvent(event);
    if (scheduled?.type !== 'WebhookDeliveryScheduled') throw new Error('WebhookDeliveryScheduled is not well-formed');
    const key = webhookDeliveriesKey(scheduled.data.endpointId);
    tx.zadd(key, Number(event.position), scheduled.data.deliveryId);
    tx.zremrangebyrank(key, 0, -(WEBHOOK_DELIVERIES_KEPT + 1));
  },
};

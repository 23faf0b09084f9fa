/** The delivery job's data: the delivery and its run; what to send and where come from the log. */
import { WEBHOOK_DELIVERY_ID_PATTERN } from '@quern/core/webhooks';
import { z } from 'zod';

export const WEBHOOK_DELIVERY_QUEUE = 'webhook-delivery';
export const WEBHOOK_DELIVERY_JOB_NAME = 'deliver-webhook';

export const webhookDeliveryJobId = (deliveryId: string, run: number): string => `webhook-delivery-${deliveryId}-${run}`;

export const webhookDeliveryPayload = z
  .object({ deliveryId: z.string().regex(WEBHOOK_DELIVERY_ID_PATTERN), run: z.number().int().min(0).max(1_000) })
  .strict();
export type WebhookDeliveryPayload = z.infer<typeof webhookDeliveryPayload>;

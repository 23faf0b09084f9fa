/** The fan-out job's data: which log event to report; everything else is read from the log. */
import { z } from 'zod';

export const WEBHOOK_FANOUT_QUEUE = 'webhook-fanout';
export const WEBHOOK_FANOUT_JOB_NAME = 'fan-out-webhook';

export const webhookFanOutJobId = (fanOutId: string): string => `webhook-fanout-${fanOutId}`;

export const webhookFanOutPayload = z
  .object({
    streamId: z.string().min(1).max(300),
    revision: z.string().regex(/^[0-9]{1,20}$/),
    position: z.string().regex(/^[0-9]{1,20}$/),
  })
  .strict();
export type WebhookFanOutPayload = z.infer<typeof webhookFanOutPayload>;

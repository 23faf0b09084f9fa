/**
 * The webhook endpoints' inputs and answers, shared by the merchant API (/api/v1, whose OpenAPI
 * reference is generated from them) and the web app's tRPC procedures.
 */
import { z } from 'zod';
import { isWebhookEventType, WEBHOOK_DELIVERY_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './catalogue.js';
import { WEBHOOK_DELIVERY_ID_PATTERN, WEBHOOK_ENDPOINT_ID_PATTERN } from './events.js';

// Checked as a whole so the error names the `events` field (not `events.0`); the types are listed in the description.
const eventType = z.string({ error: 'errors:webhookEventUnknown' }).max(40, { error: 'errors:webhookEventUnknown' });
const knownTypes = (types: string[]) => types.every(isWebhookEventType);

export const webhookEndpointCreateInput = z.strictObject({
  url: z
    .string({ error: 'errors:webhookUrlInvalid' })
    .min(1, { error: 'errors:webhookUrlInvalid' })
    .max(2048, { error: 'errors:webhookUrlInvalid' })
    .meta({ description: 'Where Quern POSTs the events: http or https, publicly reachable, no credentials.' }),
  events: z
    .array(eventType)
    .min(1, { error: 'errors:webhookEventsEmpty' })
    .max(WEBHOOK_EVENT_TYPES.length * 2, { error: 'errors:webhookEventUnknown' })
    .refine(knownTypes, { error: 'errors:webhookEventUnknown' })
    .optional()
    .meta({
      description: `The event types to send, at least one of ${WEBHOOK_EVENT_TYPES.join(', ')}; absent means all of them, including types added later.`,
    }),
});
export type WebhookEndpointCreateInput = z.infer<typeof webhookEndpointCreateInput>;

export const webhookEndpointParams = z.strictObject({
  id: z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN, { error: 'errors:webhookEndpointNotFound' }),
});
export const webhookDeliveryParams = z.strictObject({
  id: z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN, { error: 'errors:webhookEndpointNotFound' }),
  delivery: z.string().regex(WEBHOOK_DELIVERY_ID_PATTERN, { error: 'errors:webhookDeliveryNotFound' }),
});

export const webhookEndpointOutput = z.object({
  id: z.string().meta({ description: 'The endpoint id (`we_…`).' }),
  object: z.literal('webhook_endpoint'),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).meta({ description: 'Subscribed types; empty means all.' }),
  created_at: z.string().meta({ description: 'ISO 8601.' }),
});
export type WebhookEndpointOutput = z.infer<typeof webhookEndpointOutput>;

export const webhookEndpointCreatedOutput = webhookEndpointOutput.extend({
  secret: z.string().meta({ description: 'The signing secret (`whsec_` + base64). Shown in this answer only: store it now.' }),
});
export type WebhookEndpointCreatedOutput = z.infer<typeof webhookEndpointCreatedOutput>;

export const webhookEndpointListOutput = z.object({ object: z.literal('list'), data: z.array(webhookEndpointOutput) });
export type WebhookEndpointListOutput = z.infer<typeof webhookEndpointListOutput>;

export const webhookEndpointDeletedOutput = z.object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) });
export type WebhookEndpointDeletedOutput = z.infer<typeof webhookEndpointDeletedOutput>;

export const WEBHOOK_DELIVERIES_PAGE_MAX = 100;
export const webhookDeliveriesQuery = z.strictObject({
  limit: z.coerce
    .number({ error: 'errors:webhookLimitInvalid' })
    .int({ error: 'errors:webhookLimitInvalid' })
    .min(1, { error: 'errors:webhookLimitInvalid' })
    .max(WEBHOOK_DELIVERIES_PAGE_MAX, { error: 'errors:webhookLimitInvalid' })
    .optional()
    .meta({ description: `Deliveries per page, 1 to ${WEBHOOK_DELIVERIES_PAGE_MAX} (default 20).` }),
  starting_after: z
    .string()
    .regex(WEBHOOK_DELIVERY_ID_PATTERN, { error: 'errors:webhookDeliveryNotFound' })
    .optional()
    .meta({ description: 'A delivery id of the previous page: the page after it (older deliveries).' }),
});
export type WebhookDeliveriesQuery = z.infer<typeof webhookDeliveriesQuery>;

export const webhookAttemptOutput = z.object({
  run: z.number().int().meta({ description: '0 for the first delivery, n for the n-th redelivery.' }),
  attempt: z.number().int().meta({ description: '1-based within the run.' }),
  started_at: z.string(),
  duration_ms: z.number().int(),
  status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when no answer came." }),
  error: z.string().nullable().meta({ description: 'Why it failed: timeout, refused_address, network or http_status.' }),
  delivered: z.boolean(),
});

export const webhookDeliveryOutput = z.object({
  id: z.string().meta({ description: 'The delivery id, also the `webhook-id` header of every attempt.' }),
  object: z.literal('webhook_delivery'),
  endpoint: z.string(),
  event_type: z
    .enum(WEBHOOK_DELIVERY_EVENT_TYPES)
    .meta({ description: 'The event type, or `test.ping` for a test event sent from API Direct.' }),
  status: z.enum(['pending', 'delivered', 'failed']),
  created_at: z.string(),
  attempts: z.array(webhookAttemptOutput),
});
export type WebhookDeliveryOutput = z.infer<typeof webhookDeliveryOutput>;

export const webhookDeliveryListOutput = z.object({
  object: z.literal('list'),
  data: z.array(webhookDeliveryOutput),
  has_more: z.boolean(),
});
export type WebhookDeliveryListOutput = z.infer<typeof webhookDeliveryListOutput>;

/** The web app's input: the endpoint and the same page fields, JSON-typed (no coercion from query strings). */
export const webhookDeliveriesInput = webhookEndpointParams.extend({
  limit: z
    .number({ error: 'errors:webhookLimitInvalid' })
    .int({ error: 'errors:webhookLimitInvalid' })
    .min(1, { error: 'errors:webhookLimitInvalid' })
    .max(WEBHOOK_DELIVERIES_PAGE_MAX, { error: 'errors:webhookLimitInvalid' })
    .optional(),
  starting_after: webhookDeliveriesQuery.shape.starting_after,
});

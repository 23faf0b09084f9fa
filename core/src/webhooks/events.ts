/**
 * Webhook events (ADR 035). Endpoints live on one stream per merchant,
 * `webhook-endpoints-<merchantUserId>`, so the bound on endpoints is decided on that stream's
 * revision. Each delivery of one source event to one endpoint has its own stream,
 * `webhook-delivery-<deliveryId>`, opened by WebhookDeliveryScheduled with 'no_stream' (a
 * repeated fan-out is a no-op) and holding every attempt. The fan-out of one source event is
 * recorded as done by WebhookFannedOut on `webhook-fanout-<fanOutId>` in the same atomic append.
 */
import { z } from 'zod';
import { eventSchemaOf } from '../shared/command-handler.js';
import { ERASED } from '../personal-data/index.js';
import { WEBHOOK_DELIVERY_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './catalogue.js';

export const webhookEndpointsStream = (merchantUserId: string): string => `webhook-endpoints-${merchantUserId}`;
export const webhookDeliveryStream = (deliveryId: string): string => `webhook-delivery-${deliveryId}`;
export const webhookFanOutStream = (fanOutId: string): string => `webhook-fanout-${fanOutId}`;

/** `we_` + 32 hex: random (from a UUID). */
export const WEBHOOK_ENDPOINT_ID_PATTERN = /^we_[0-9a-f]{32}$/;
/** `msg_` + 32 hex: a digest of endpoint and source event (ids.ts); it is also the `webhook-id`. */
export const WEBHOOK_DELIVERY_ID_PATTERN = /^msg_[0-9a-f]{32}$/;
/** 32 hex: a digest of the source event's stream and revision. */
export const WEBHOOK_FAN_OUT_ID_PATTERN = /^[0-9a-f]{32}$/;

export type WebhookEndpointCreated = {
  type: 'WebhookEndpointCreated';
  data: {
    endpointId: string;
    merchantUserId: string;
    url: string;
    /** Subscribed event types; empty means all of them. */
    events: string[];
    /** `whsec_` + base64: needed to sign, so kept (ADR 035); shown to the merchant only once. */
    secret: string;
    createdAt: string;
  };
};

/**
 * A new signing secret for an endpoint (ADR 056). The secret it replaces keeps signing beside it
 * for WEBHOOK_SECRET_OVERLAP_MS after `rotatedAt`, so receivers can switch without losing a
 * delivery; a secret older than the replaced one stops at once.
 */
export type WebhookEndpointSecretRotated = {
  type: 'WebhookEndpointSecretRotated';
  data: {
    endpointId: string;
    merchantUserId: string;
    /** `whsec_` + base64, sealed in the log with the merchant's key like the creation's (ADR 056). */
    secret: string;
    rotatedAt: string;
  };
};

export type WebhookEndpointDeleted = {
  type: 'WebhookEndpointDeleted';
  data: { endpointId: string; merchantUserId: string; deletedAt: string };
};

/** The longest body a delivery stores (UTF-16 code units): its reader refuses a longer one. */
export const WEBHOOK_BODY_LENGTH_MAX = 65_536;

export type WebhookDeliveryScheduled = {
  type: 'WebhookDeliveryScheduled';
  data: {
    deliveryId: string;
    endpointId: string;
    merchantUserId: string;
    eventType: string;
    /**
     * The exact body every attempt sends, so retries and redeliveries are byte-identical. A payout
     * paid to a Quern account holds PAYOUT_TO_PLACEHOLDER instead of its recipient, which is kept
     * in `payoutTo`, sealed with the payee's key (ADR 042, 046): see deliveryBodyOf.
     */
    body: string;
    /** The Quern account a payout paid, whose key seals `payoutTo`. */
    payeeUserId?: string;
    /** The payout's recipient as the merchant named it (an e-mail, perhaps); `[erased]` once the payee is deleted. */
    payoutTo?: string;
    /** The log event this delivery reports (stream and revision), for tracing. */
    sourceStreamId: string;
    sourceRevision: string;
    scheduledAt: string;
  };
};

/** A merchant asked to send a delivery again: run n ≥ 1 (run 0 is the first delivery). */
export type WebhookRedeliveryRequested = {
  type: 'WebhookRedeliveryRequested';
  data: { deliveryId: string; run: number; requestedAt: string };
};

export type WebhookDeliveryAttempted = {
  type: 'WebhookDeliveryAttempted';
  data: {
    deliveryId: string;
    run: number;
    /** 1-based within the run. */
    attempt: number;
    startedAt: string;
    durationMs: number;
    /** The receiver's HTTP status, absent when no answer came (refused, timeout, DNS). */
    statusCode?: number;
    /** Why no 2xx came: a short code (timeout, refused_address, network, http_status). */
    error?: string;
    /** A short bounded excerpt of the answer's body, for the merchant's debugging. */
    responseExcerpt?: string;
    delivered: boolean;
  };
};

export type WebhookDeliverySucceeded = {
  type: 'WebhookDeliverySucceeded';
  data: { deliveryId: string; run: number; deliveredAt: string };
};

/** The run gave up: every scheduled attempt failed, or the endpoint was deleted. */
export type WebhookDeliveryFailed = {
  type: 'WebhookDeliveryFailed';
  data: { deliveryId: string; run: number; reason: 'attempts_exhausted' | 'endpoint_deleted'; failedAt: string };
};

export type WebhookFannedOut = {
  type: 'WebhookFannedOut';
  data: { fanOutId: string; sourceStreamId: string; sourceRevision: string; deliveryIds: string[]; fannedOutAt: string };
};

export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointSecretRotated | WebhookEndpointDeleted;
export type WebhookDeliveryEvent =
  | WebhookDeliveryScheduled
  | WebhookRedeliveryRequested
  | WebhookDeliveryAttempted
  | WebhookDeliverySucceeded
  | WebhookDeliveryFailed;
export type WebhookEvent = WebhookEndpointEvent | WebhookDeliveryEvent | WebhookFannedOut;

// A tolerant reader, as for the other capabilities: unknown fields dropped, malformed refused.
const text = z.string().min(1).max(200);
const time = z.string().min(1).max(40);
const deliveryId = z.string().regex(WEBHOOK_DELIVERY_ID_PATTERN);
const endpointId = z.string().regex(WEBHOOK_ENDPOINT_ID_PATTERN);
const run = z.number().int().min(0).max(1_000);
// A merchant's secrets are sealed with the merchant's key (ADR 056): once the account is deleted
// they read as ERASED, and the stream must still load (its endpoints are deleted by then).
const secret = z.union([z.string().regex(/^whsec_[A-Za-z0-9+/=]{16,100}$/), z.literal(ERASED)]);

const dataSchemas = {
  WebhookEndpointCreated: z.object({
    endpointId,
    merchantUserId: text,
    url: z.string().min(1).max(2048),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)).max(WEBHOOK_EVENT_TYPES.length),
    secret,
    createdAt: time,
  }),
  WebhookEndpointSecretRotated: z.object({ endpointId, merchantUserId: text, secret, rotatedAt: time }),
  WebhookEndpointDeleted: z.object({ endpointId, merchantUserId: text, deletedAt: time }),
  WebhookDeliveryScheduled: z.object({
    deliveryId,
    endpointId,
    merchantUserId: text,
    eventType: z.enum(WEBHOOK_DELIVERY_EVENT_TYPES),
    body: z.string().min(2).max(WEBHOOK_BODY_LENGTH_MAX),
    payeeUserId: text.optional(),
    payoutTo: z.string().min(1).max(400).optional(),
    sourceStreamId: z.string().min(1).max(300),
    sourceRevision: z.string().regex(/^[0-9]{1,20}$/),
    scheduledAt: time,
  }),
  WebhookRedeliveryRequested: z.object({ deliveryId, run: run.min(1), requestedAt: time }),
  WebhookDeliveryAttempted: z.object({
    deliveryId,
    run,
    attempt: z.number().int().min(1).max(100),
    startedAt: time,
    durationMs: z.number().int().min(0),
    statusCode: z.number().int().min(100).max(599).optional(),
    error: z.string().max(40).optional(),
    responseExcerpt: z.string().max(1_000).optional(),
    delivered: z.boolean(),
  }),
  WebhookDeliverySucceeded: z.object({ deliveryId, run, deliveredAt: time }),
  WebhookDeliveryFailed: z.object({ deliveryId, run, reason: z.enum(['attempts_exhausted', 'endpoint_deleted']), failedAt: time }),
  WebhookFannedOut: z.object({
    fanOutId: z.string().regex(WEBHOOK_FAN_OUT_ID_PATTERN),
    sourceStreamId: z.string().min(1).max(300),
    sourceRevision: z.string().regex(/^[0-9]{1,20}$/),
    deliveryIds: z.array(deliveryId).max(1_000),
    fannedOutAt: time,
  }),
} satisfies Record<WebhookEvent['type'], z.ZodType>;

/** One schema per event type, each parsing the whole event. */
export const webhookEventSchemas = {
  WebhookEndpointCreated: eventSchemaOf('WebhookEndpointCreated', dataSchemas.WebhookEndpointCreated),
  WebhookEndpointSecretRotated: eventSchemaOf('WebhookEndpointSecretRotated', dataSchemas.WebhookEndpointSecretRotated),
  WebhookEndpointDeleted: eventSchemaOf('WebhookEndpointDeleted', dataSchemas.WebhookEndpointDeleted),
  WebhookDeliveryScheduled: eventSchemaOf('WebhookDeliveryScheduled', dataSchemas.WebhookDeliveryScheduled),
  WebhookRedeliveryRequested: eventSchemaOf('WebhookRedeliveryRequested', dataSchemas.WebhookRedeliveryRequested),
  WebhookDeliveryAttempted: eventSchemaOf('WebhookDeliveryAttempted', dataSchemas.WebhookDeliveryAttempted),
  WebhookDeliverySucceeded: eventSchemaOf('WebhookDeliverySucceeded', dataSchemas.WebhookDeliverySucceeded),
  WebhookDeliveryFailed: eventSchemaOf('WebhookDeliveryFailed', dataSchemas.WebhookDeliveryFailed),
  WebhookFannedOut: eventSchemaOf('WebhookFannedOut', dataSchemas.WebhookFannedOut),
} satisfies { [Type in WebhookEvent['type']]: z.ZodType<Extract<WebhookEvent, { type: Type }>> };

export type WebhookEventTypeName = WebhookEvent['type'];
export const isWebhookEventName = (type: string): type is WebhookEventTypeName => Object.hasOwn(webhookEventSchemas, type);

/** A recorded event as a WebhookEvent, or undefined when it is not one or has not its shape. */
export function toWebhookEvent(recorded: { type: string; data: unknown }): WebhookEvent | undefined {
  if (!isWebhookEventName(recorded.type)) return undefined;
  const schema: z.ZodType<WebhookEvent> = webhookEventSchemas[recorded.type];
  const parsed = schema.safeParse({ type: recorded.type, data: recorded.data });
  return parsed.success ? parsed.data : undefined;
}

/** An endpoint stream's event, or undefined when the record is not one (or not well-formed). */
export function toWebhookEndpointEvent(recorded: { type: string; data: unknown }): WebhookEndpointEvent | undefined {
  const event = toWebhookEvent(recorded);
  switch (event?.type) {
    case 'WebhookEndpointCreated':
    case 'WebhookEndpointSecretRotated':
    case 'WebhookEndpointDeleted':
      return event;
    default:
      return undefined;
  }
}

/** A delivery stream's event, or undefined when the record is not one (or not well-formed). */
export function toWebhookDeliveryEvent(recorded: { type: string; data: unknown }): WebhookDeliveryEvent | undefined {
  const event = toWebhookEvent(recorded);
  switch (event?.type) {
    case 'WebhookDeliveryScheduled':
    case 'WebhookRedeliveryRequested':
    case 'WebhookDeliveryAttempted':
    case 'WebhookDeliverySucceeded':
    case 'WebhookDeliveryFailed':
      return event;
    default:
      return undefined;
  }
}

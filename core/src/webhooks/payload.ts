/**
 * What a webhook says, Standard Webhooks style: `{ type, timestamp, livemode, data }`, where `data` is the
 * object as the merchant API answers it (the order of GET /api/v1/orders/{order}, the refund, the
 * payout, the subscription), with `livemode` too: false from a sandbox, true from a live Quern (ADR 050). Amounts are decimal strings, as everywhere on the wire. The body is built once, at
 * fan-out, and stored, so every attempt of a delivery sends the same bytes.
 */
import { z } from 'zod';
import { isLivemode, type QuernMode } from '../shared/quern-mode.js';
import { WEBHOOK_CATALOGUE, WEBHOOK_EVENT_TYPES, type WebhookEventType, type WebhookObjectOf } from './catalogue.js';

/** A webhook to send: one of the catalogue's types with the object it carries. */
export type WebhookData = { [K in WebhookEventType]: { type: K; data: WebhookObjectOf<K> } }[WebhookEventType];

const livemode = z.boolean().meta({ description: 'false from a sandbox (test money only), true from a live Quern.' });

const payloadOf = <K extends WebhookEventType>(type: K) =>
  z.object({ type: z.literal(type), timestamp: z.string(), livemode, data: WEBHOOK_CATALOGUE[type].data.extend({ livemode }) });
const [firstType, ...otherTypes] = WEBHOOK_EVENT_TYPES;

/** The payload schema, for the reference and for tests: `livemode` on the payload and on its object. */
export const webhookPayloadSchema = z.discriminatedUnion('type', [payloadOf(firstType), ...otherTypes.map(payloadOf)]);

/**
 * The JSON body: `timestamp` is when the event happened (ISO 8601), not when it is sent;
 * `livemode` (false in a sandbox, true in live) on the payload and on its object, as the merchant
 * API marks every object (ADR 050). A body is stored at fan-out, so it says the mode it was made in.
 */
export function webhookBody(event: WebhookData, occurredAt: string, mode: QuernMode): string {
  const type: WebhookEventType = event.type;
  const live = isLivemode(mode);
  return JSON.stringify({ type, timestamp: occurredAt, livemode: live, data: { ...event.data, livemode: live } });
}

/**
 * What a payout's `to` reads as in a stored delivery body when the recipient is a Quern account:
 * the recipient itself is stored beside it, sealed (WebhookDeliveryScheduled.payoutTo). A `to`
 * can never hold a NUL, so the placeholder cannot be a real recipient.
 */
export const PAYOUT_TO_PLACEHOLDER = '\u0000payout-to\u0000';

/** The body a delivery sends: its stored body with the sealed recipient put back in place. */
export function deliveryBodyOf(scheduled: { body: string; payoutTo?: string }): string {
  if (scheduled.payoutTo === undefined) return scheduled.body;
  return scheduled.body.replace(JSON.stringify(PAYOUT_TO_PLACEHOLDER), JSON.stringify(scheduled.payoutTo));
}

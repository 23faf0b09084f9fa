/**
 * What a webhook says, Standard Webhooks style: `{ type, timestamp, livemode, data }`, where `data` is the
 * object as the merchant API answers it (the order of GET /api/v1/orders/{order}, the refund, the
 * payout, the subscription), with `livemode` too: false from a sandbox, true from a live Quern (ADR 050). Amounts are decimal strings, as everywhere on the wire. The body is built once, at
 * fan-out, and stored, so every attempt of a delivery sends the same bytes.
 */
import { z } from 'zod';
import { isLivemode, type QuernMode } from '../shared/quern-mode.js';
import { type MerchantOrder, merchantOrderOutput } from '../checkout/merchant-order.js';
import { type SubscriptionOutput, subscriptionOutput } from '../subscriptions/contracts.js';
import { SUBSCRIPTION_WEBHOOK_TYPES, type SubscriptionWebhookType, type WebhookEventType } from './catalogue.js';

export const webhookRefundObject = z.object({
  id: z.string(),
  object: z.literal('refund'),
  order: z.string(),
  amount: z.string().meta({ description: 'Whole MLX given back, as a decimal string.' }),
  currency: z.literal('MLX'),
  status: z.literal('succeeded'),
  created_at: z.string(),
});
export type WebhookRefund = z.infer<typeof webhookRefundObject>;

export const webhookPayoutObject = z.object({
  id: z.string(),
  object: z.literal('payout'),
  to: z.string(),
  amount: z.string().meta({ description: 'Whole MLX sent, as a decimal string.' }),
  fee: z.string().meta({ description: 'Whole MLX fee, as a decimal string.' }),
  currency: z.literal('MLX'),
  status: z.literal('completed'),
  created_at: z.string(),
});
export type WebhookPayout = z.infer<typeof webhookPayoutObject>;

export type WebhookData =
  | { type: 'order.paid'; data: MerchantOrder }
  | { type: 'refund.succeeded'; data: WebhookRefund }
  | { type: 'payout.completed'; data: WebhookPayout }
  | { type: SubscriptionWebhookType; data: SubscriptionOutput };

const livemode = z.boolean().meta({ description: 'false from a sandbox (test money only), true from a live Quern.' });

/** The payload schema, for the reference and for tests: `livemode` on the payload and on its object. */
export const webhookPayloadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('order.paid'), timestamp: z.string(), livemode, data: merchantOrderOutput.extend({ livemode }) }),
  z.object({ type: z.literal('refund.succeeded'), timestamp: z.string(), livemode, data: webhookRefundObject.extend({ livemode }) }),
  z.object({ type: z.literal('payout.completed'), timestamp: z.string(), livemode, data: webhookPayoutObject.extend({ livemode }) }),
  ...SUBSCRIPTION_WEBHOOK_TYPES.map((type) =>
    z.object({ type: z.literal(type), timestamp: z.string(), livemode, data: subscriptionOutput.extend({ livemode }) }),
  ),
]);

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

export function refundObjectOf(refund: { refundId: string; orderId: string; mlx: string; refundedAt: string }): WebhookRefund {
  return {
    id: refund.refundId,
    object: 'refund',
    order: refund.orderId,
    amount: refund.mlx,
    currency: 'MLX',
    status: 'succeeded',
    created_at: refund.refundedAt,
  };
}

export function payoutObjectOf(payout: { payoutId: string; to: string; mlx: string; feeMlx: string; requestedAt: string }): WebhookPayout {
  return {
    id: payout.payoutId,
    object: 'payout',
    to: payout.to,
    amount: payout.mlx,
    fee: payout.feeMlx,
    currency: 'MLX',
    status: 'completed',
    created_at: payout.requestedAt,
  };
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

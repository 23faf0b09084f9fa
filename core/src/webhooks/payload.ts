/**
 * What a webhook says, Standard Webhooks style: `{ type, timestamp, data }`, where `data` is the
 * object as the merchant API answers it (the order of GET /api/v1/orders/{order}, the refund, the
 * payout, the subscription). Amounts are decimal strings, as everywhere on the wire. The body is built once, at
 * fan-out, and stored, so every attempt of a delivery sends the same bytes.
 */
import { z } from 'zod';
import { type MerchantOrder, merchantOrderOutput } from '../checkout/merchant-order.js';
import { type SubscriptionOutput, subscriptionOutput } from '../subscriptions/contracts.js';
import type { WebhookEventType } from './catalogue.js';

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

/** The subscription events (issue 13): `data` is the subscription object as the subscriptions API answers it. */
export const SUBSCRIPTION_WEBHOOK_TYPES = [
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.cancelled',
] as const;
export type SubscriptionWebhookType = (typeof SUBSCRIPTION_WEBHOOK_TYPES)[number];

/** The payload schema, for the reference and for tests. */
export const webhookPayloadSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('order.paid'), timestamp: z.string(), data: merchantOrderOutput }),
  z.object({ type: z.literal('refund.succeeded'), timestamp: z.string(), data: webhookRefundObject }),
  z.object({ type: z.literal('payout.completed'), timestamp: z.string(), data: webhookPayoutObject }),
  ...SUBSCRIPTION_WEBHOOK_TYPES.map((type) => z.object({ type: z.literal(type), timestamp: z.string(), data: subscriptionOutput })),
]);

/** The JSON body: `timestamp` is when the event happened (ISO 8601), not when it is sent. */
export function webhookBody(event: WebhookData, occurredAt: string): string {
  const type: WebhookEventType = event.type;
  return JSON.stringify({ type, timestamp: occurredAt, data: event.data });
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

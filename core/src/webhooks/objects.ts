/**
 * The objects a refund's and a payout's webhooks carry, as the merchant API answers them. The
 * order and the subscription objects are their capabilities' own (checkout's merchant order,
 * subscriptions' output); these two exist only on the wire of a webhook.
 */
import { z } from 'zod';

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

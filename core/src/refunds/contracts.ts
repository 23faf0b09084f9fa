/**
 * The refund's wire shapes (ADR 033): `POST /api/v1/refunds` and the web's `refunds.create` take
 * the order and an optional amount (decimal text: a JSON number cannot carry every MLX amount);
 * the answer is the refund object integrators read back with `GET /api/v1/refunds/{id}`.
 */
import { z } from 'zod';
import { IDEMPOTENCY_KEY_PATTERN } from '../wallet/events.js';
import { MLX_TOTAL_SUPPLY, mlxToWire } from '../wallet/money.js';
import type { RefundRecord } from './state.js';

/** A positive whole number of MLX as decimal text; refused rather than guessed at otherwise. */
export const positiveMlxText = z
  .string({ error: 'errors:invalidAmount' })
  .regex(/^[1-9][0-9]{0,19}$/, { error: 'errors:invalidAmount' })
  .transform((text, ctx) => {
    const amountMlx = BigInt(text);
    if (amountMlx <= MLX_TOTAL_SUPPLY) return amountMlx;
    ctx.addIssue({ code: 'custom', message: 'errors:amountTooLarge' });
    return z.NEVER;
  });

export const refundCreateInput = z.strictObject({
  order: z
    .string({ error: 'errors:invalidRequest' })
    .min(1, { error: 'errors:invalidRequest' })
    .max(200, { error: 'errors:invalidRequest' })
    .meta({ description: 'The paid checkout order to refund.' }),
  amount: positiveMlxText
    .optional()
    .meta({ description: 'MLX to give back, as decimal text; absent: everything not yet refunded.', example: '1500' }),
});
export type RefundCreateInput = z.output<typeof refundCreateInput>;

/** The web's procedure: the same body, with the key the page made for this attempt. */
export const refundCreateTrpcInput = refundCreateInput.extend({
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:idempotencyKeyInvalid' }),
});

export const refundIdParams = z.strictObject({ id: z.string().max(200).meta({ description: 'The refund id, `re_…`.' }) });

export const refundOutput = z.object({
  id: z.string().meta({ description: 'The refund id, `re_` and 32 hex digits.' }),
  object: z.literal('refund'),
  order: z.string().meta({ description: 'The checkout order it gave MLX back for.' }),
  amount: z.string().meta({ description: 'MLX given back, as decimal text.' }),
  currency: z.literal('MLX'),
  status: z.literal('succeeded').meta({ description: 'A refund is settled in the same append that records it.' }),
  created_at: z.iso.datetime(),
});
export type RefundOutput = z.infer<typeof refundOutput>;

export const toRefundOutput = (refund: RefundRecord): RefundOutput => ({
  id: refund.refundId,
  object: 'refund',
  order: refund.orderId,
  amount: mlxToWire(refund.mlx),
  currency: 'MLX',
  status: 'succeeded',
  created_at: refund.refundedAt,
});

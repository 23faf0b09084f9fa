/**
 * The payout's wire shapes (ADR 033): `POST /api/v1/payouts` takes `to` (a millix address, a
 * username or an e-mail, read as the send form reads it) and `amount` (decimal text); the fee is
 * the send's, 1000 MLX, and is in the answer so that amount + fee explains the merchant's debit.
 */
import { z } from 'zod';
import { classifyRecipient, RECIPIENT_TEXT_LENGTH_MAX, type Recipient } from '../wallet/contracts.js';
import { positiveMlxText } from '../refunds/contracts.js';

export const payoutCreateInput = z.strictObject({
  to: z
    .string({ error: 'errors:allFieldsRequired' })
    .max(RECIPIENT_TEXT_LENGTH_MAX + 64, { error: 'errors:invalidRecipient' })
    .transform((value, ctx): { text: string; recipient: Recipient } => {
      const result = classifyRecipient(value);
      if (result.ok) return { text: value.trim(), recipient: result.recipient };
      ctx.addIssue({ code: 'custom', message: result.messageKey });
      return z.NEVER;
    })
    .meta({ description: 'A millix address, or the username or e-mail of a Quern user.' }),
  amount: positiveMlxText.meta({ description: 'MLX to send, as decimal text (the fee of 1000 MLX is added).', example: '25000' }),
});
export type PayoutCreateInput = z.output<typeof payoutCreateInput>;

export const payoutIdParams = z.strictObject({ id: z.string().max(200).meta({ description: 'The payout id, `po_…`.' }) });

export type PayoutStatus = 'pending' | 'completed' | 'failed';

export const payoutOutput = z.object({
  id: z.string().meta({ description: 'The payout id, `po_` and 32 hex digits.' }),
  object: z.literal('payout'),
  to: z.string().meta({ description: 'The recipient as the request named it.' }),
  amount: z.string().meta({ description: 'MLX sent, as decimal text.' }),
  fee: z.string().meta({ description: 'The send fee in MLX, as decimal text.' }),
  currency: z.literal('MLX'),
  status: z
    .enum(['pending', 'completed', 'failed'])
    .meta({ description: '`pending` while a send to an external address awaits the millix network; then `completed` or `failed`.' }),
  created_at: z.iso.datetime(),
});
export type PayoutOutput = z.infer<typeof payoutOutput>;

/** A merchant's payout through the merchant API (ADR 033): a send under the send's rules (fee 1000). */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';

export type PayoutTransferReference = { kind: 'payout'; payoutId: string };

export const payoutTransferReference: z.ZodType<PayoutTransferReference> = z.object({
  kind: z.literal('payout'),
  payoutId: transferReferenceId,
});

export const isPayoutReference = (reference: TransferReferenceShape): reference is PayoutTransferReference => reference.kind === 'payout';

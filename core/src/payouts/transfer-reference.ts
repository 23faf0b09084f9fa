/** A merchant's payout through the merchant API (ADR 033): a send under the send's rules (fee 1000). */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type PayoutTransferReference = { kind: 'payout'; payoutId: string };

export const payoutTransferReference: z.ZodType<PayoutTransferReference> = z.object({
  kind: z.literal('payout'),
  payoutId: transferReferenceId,
});

/**
 * The wallet's terms of a payout (ADR 077): a merchant's send, under a send's rules: the send's
 * fee, to any address or wallet, may wait for settlement, and bought MLX still held may not pay it.
 */
export const payoutTransferTerms: Readonly<Record<PayoutTransferReference['kind'], TransferTerms>> = {
  payout: {
    reference: payoutTransferReference,
    payer: 'user',
    payee: 'any',
    fee: 'send',
    settlement: 'atOnceOrLater',
    purchaseHold: 'blocked',
  },
};

export const isPayoutReference = (reference: TransferReferenceShape): reference is PayoutTransferReference => reference.kind === 'payout';

/**
 * One period of a subscription (issue 13, ADR 037): subscriber → provider, the plan's price,
 * fee 0, settled at once. `period` is 1 for the charge made on subscribing, then 2, 3, ...
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceCount, transferReferenceId } from '../wallet/transfer-reference.js';
import type { TransferTerms } from '../wallet/transfer-terms.js';

export type SubscriptionChargeTransferReference = { kind: 'subscriptionCharge'; subscriptionId: string; period: number };

export const subscriptionChargeTransferReference: z.ZodType<SubscriptionChargeTransferReference> = z.object({
  kind: z.literal('subscriptionCharge'),
  subscriptionId: transferReferenceId,
  period: transferReferenceCount,
});

/**
 * The wallet's terms of a subscription charge (ADR 037, 077): subscriber to provider, both users,
 * no fee, settled at once; bought MLX may pay it, and is spent first.
 */
export const subscriptionChargeTransferTerms: Readonly<Record<SubscriptionChargeTransferReference['kind'], TransferTerms>> = {
  subscriptionCharge: {
    reference: subscriptionChargeTransferReference,
    payer: 'user',
    payee: 'user',
    fee: 'none',
    settlement: 'atOnce',
    purchaseHold: 'spends',
  },
};

export const isSubscriptionChargeReference = (reference: TransferReferenceShape): reference is SubscriptionChargeTransferReference =>
  reference.kind === 'subscriptionCharge';

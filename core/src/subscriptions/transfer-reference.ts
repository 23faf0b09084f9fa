/**
 * One period of a subscription (issue 13, ADR 037): subscriber → provider, the plan's price,
 * fee 0, settled at once. `period` is 1 for the charge made on subscribing, then 2, 3, ...
 */
import { z } from 'zod';
import type { TransferReferenceShape } from '../shared/audit-rule.js';
import { transferReferenceCount, transferReferenceId } from '../wallet/transfer-reference.js';

export type SubscriptionChargeTransferReference = { kind: 'subscriptionCharge'; subscriptionId: string; period: number };

export const subscriptionChargeTransferReference: z.ZodType<SubscriptionChargeTransferReference> = z.object({
  kind: z.literal('subscriptionCharge'),
  subscriptionId: transferReferenceId,
  period: transferReferenceCount,
});

export const isSubscriptionChargeReference = (reference: TransferReferenceShape): reference is SubscriptionChargeTransferReference =>
  reference.kind === 'subscriptionCharge';

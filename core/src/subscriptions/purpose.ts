/** One period of a subscription in the history (ADR 037): the subscription and the period it paid. */
import { z } from 'zod';
import { purposeId } from '../wallet/purpose.js';

export interface SubscriptionChargePurpose {
  kind: 'subscription_charge';
  subscription_id: string;
  period: number;
}

export const subscriptionChargePurposeSchema = z.object({
  kind: z.literal('subscription_charge'),
  subscription_id: purposeId,
  period: z.number().int().min(1),
});

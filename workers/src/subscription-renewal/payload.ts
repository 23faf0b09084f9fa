/**
 * The renewal job's data: which subscription, and which (period, attempt) it decides. The price,
 * the people and the due time come from the log when it runs, never from the job.
 */
import { SUBSCRIPTION_ID_PATTERN } from '@quern/core/subscriptions';
import { z } from 'zod';

export const SUBSCRIPTION_RENEWAL_QUEUE = 'subscription-renewal';
export const SUBSCRIPTION_RENEWAL_JOB_NAME = 'renew-subscription';

/** One job per subscription, period and attempt, whoever asks and however often. */
export const subscriptionRenewalJobId = (subscriptionId: string, period: number, attempt: number): string =>
  `subscription-renewal-${subscriptionId}-${period}-${attempt}`;

export const subscriptionRenewalPayload = z
  .object({
    subscriptionId: z.string().regex(SUBSCRIPTION_ID_PATTERN),
    period: z.number().int().min(1).max(100_000),
    attempt: z.number().int().min(1).max(10),
  })
  .strict();
export type SubscriptionRenewalPayload = z.infer<typeof subscriptionRenewalPayload>;

/**
 * The subscription e-mail job's data: the subscription, which e-mail (its kind) and the key of
 * the event it is for (`3` for period 3's receipt, `3-2` for its second failure, the plan
 * revision for a price change). Figures, people and addresses come from the log.
 */
import { SUBSCRIPTION_EMAIL_KINDS, SUBSCRIPTION_ID_PATTERN, subscriptionEmailId } from '@quern/core/subscriptions';
import { z } from 'zod';

export const SUBSCRIPTION_EMAIL_QUEUE = 'subscription-email';
export const SUBSCRIPTION_EMAIL_JOB_NAME = 'send-subscription-email';

/** One job per e-mail: the id the stream records it under (subscriptionEmailId) names it. */
export const subscriptionEmailJobId = (subscriptionId: string, emailId: string): string =>
  `subscription-email-${subscriptionId}-${emailId}`;

export const subscriptionEmailPayload = z
  .object({
    subscriptionId: z.string().regex(SUBSCRIPTION_ID_PATTERN),
    kind: z.enum(SUBSCRIPTION_EMAIL_KINDS),
    key: z.string().regex(/^[0-9]{1,20}(-[0-9]{1,2})?$/),
  })
  .strict();
export type SubscriptionEmailPayload = z.infer<typeof subscriptionEmailPayload>;

export const emailIdOf = (payload: Pick<SubscriptionEmailPayload, 'kind' | 'key'>): string =>
  subscriptionEmailId(payload.kind, payload.key);

/** The mail's Message-ID key: subscription ids hold '_', which Message-IDs do not; '.' never occurs in them. */
export const subscriptionEmailMessageKey = (subscriptionId: string, emailId: string): string =>
  `subscription-${emailId}-${subscriptionId.replaceAll('_', '.')}`;

/** Key names of the plans and subscriptions read model (ADR 037; all under rm:, so a rebuild finds them). */
/** Hash: a live plan's fields as the spec's plan (id, name, description, price, currency, duration, provider_id, created_at, updated_at). */
export const planKey = (planId: string): string => `rm:plan:${planId}`;
/** Sorted set: a provider's live plans, scored by the creating event's log position (oldest first). */
export const plansOfProviderKey = (userId: string): string => `rm:plans-of-provider:${userId}`;
/** Sorted set: a subscriber's subscriptions (any status), scored by the start's log position. */
export const subscriptionsOfSubscriberKey = (userId: string): string => `rm:subscriptions-of-subscriber:${userId}`;
/** Sorted set: a plan's subscriptions (any status), scored by the start's log position. */
export const subscriptionsOfPlanKey = (planId: string): string => `rm:subscriptions-of-plan:${planId}`;
/** Hash: a subscription's subscriber, plan and status (active, past_due, cancelled, ended). */
export const subscriptionKey = (subscriptionId: string): string => `rm:subscription:${subscriptionId}`;

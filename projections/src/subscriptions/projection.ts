/**
 * The plans and subscriptions read model (ADR 037): each provider's live plans with their terms,
 * each user's subscriptions and each plan's subscribers with their status. Every write follows
 * from the event alone (PlanDeleted names its owner), so a rebuild in log order ends with the same
 * keys. A subscription's charges are not copied here: its page reads its own stream.
 */
import type { RecordedEvent } from '@quern/core';
import { isPlanEventType, toPlanEvent } from '@quern/core/plans';
import { isSubscriptionEventType, toSubscriptionEvent } from '@quern/core/subscriptions';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { planKey, plansOfProviderKey, subscriptionKey, subscriptionsOfPlanKey, subscriptionsOfSubscriberKey } from './keys.js';

const score = (event: RecordedEvent): string => event.position.toString();

function applyPlan(event: RecordedEvent, tx: ChainableCommander): void {
  const plan = toPlanEvent(event);
  if (!plan) throw new Error(`${event.type} at ${event.position} is not a well-formed plan event`);
  const d = plan.data;
  switch (plan.type) {
    case 'PlanCreated':
      tx.hset(planKey(d.planId), {
        id: d.planId,
        name: plan.data.name,
        description: plan.data.description,
        price: plan.data.priceMlx,
        currency: plan.data.currency,
        duration: plan.data.duration,
        provider_id: plan.data.providerUserId,
        created_at: plan.data.createdAt,
        updated_at: plan.data.createdAt,
      });
      tx.zadd(plansOfProviderKey(plan.data.providerUserId), score(event), d.planId);
      return;
    case 'PlanUpdated':
      tx.hset(planKey(d.planId), {
        name: plan.data.name,
        description: plan.data.description,
        price: plan.data.priceMlx,
        currency: plan.data.currency,
        duration: plan.data.duration,
        updated_at: plan.data.updatedAt,
      });
      return;
    case 'PlanDeleted':
      tx.del(planKey(d.planId));
      tx.zrem(plansOfProviderKey(plan.data.providerUserId), d.planId);
      return;
    case 'PlanPriceChangeAnnounced':
      return;
  }
}

function applySubscription(event: RecordedEvent, tx: ChainableCommander): void {
  const subscription = toSubscriptionEvent(event);
  if (!subscription) throw new Error(`${event.type} at ${event.position} is not a well-formed subscription event`);
  const key = subscriptionKey(subscription.data.subscriptionId);
  switch (subscription.type) {
    case 'SubscriptionStarted': {
      const d = subscription.data;
      tx.hset(key, {
        id: d.subscriptionId,
        plan_id: d.planId,
        provider_id: d.providerUserId,
        subscriber_id: d.subscriberUserId,
        status: 'active',
      });
      tx.zadd(subscriptionsOfSubscriberKey(d.subscriberUserId), score(event), d.subscriptionId);
      tx.zadd(subscriptionsOfPlanKey(d.planId), score(event), d.subscriptionId);
      return;
    }
    case 'SubscriptionRenewed':
      tx.hset(key, 'status', 'active');
      return;
    case 'SubscriptionChargeFailed':
      tx.hset(key, 'status', 'past_due');
      return;
    case 'SubscriptionCancelled':
      tx.hset(key, 'status', 'cancelled');
      return;
    case 'SubscriptionResumed':
      // Only a cancellation that had not run out is taken back, so it is live again (ADR 059).
      tx.hset(key, 'status', 'active');
      return;
    case 'SubscriptionEnded':
      tx.hset(key, 'status', 'ended');
      return;
    default:
      return;
  }
}

export const subscriptionsProjection: Projection = {
  name: 'subscriptions',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (isPlanEventType(event.type)) applyPlan(event, tx);
    else if (isSubscriptionEventType(event.type)) applySubscription(event, tx);
  },
};

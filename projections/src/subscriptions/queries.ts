/** Reads of the plans and subscriptions read model (ADR 037). */
import type { PlanOutput } from '@quern/core/plans';
import type { Redis } from 'ioredis';
import { parseCheckpoint } from '../checkpoint.js';
import { DEFAULT_CHECKPOINT_KEY } from '../types.js';
import { planKey, plansOfProviderKey, subscriptionKey, subscriptionsOfPlanKey, subscriptionsOfSubscriberKey } from './keys.js';

const PLAN_FIELDS = ['id', 'name', 'description', 'price', 'currency', 'duration', 'provider_id', 'created_at', 'updated_at'] as const;
/** A bound on one list read: a provider's plans, a user's subscriptions, a plan's subscribers. */
export const SUBSCRIPTION_LIST_MAX = 1_000;

function toPlan(values: (string | null)[]): PlanOutput | undefined {
  const [id, name, description, price, currency, duration, provider_id, created_at, updated_at] = values;
  if (!id || !name || !description || !price || currency !== 'mlx' || !provider_id || !created_at || !updated_at) return undefined;
  if (duration !== 'weekly' && duration !== 'monthly' && duration !== 'yearly') return undefined;
  return { id, name, description, price: Number(price), currency, duration, provider_id, created_at, updated_at };
}

/** A provider's live plans, oldest first. */
export async function listPlansOfProvider(redis: Redis, providerUserId: string): Promise<PlanOutput[]> {
  const ids = await redis.zrange(plansOfProviderKey(providerUserId), 0, String(SUBSCRIPTION_LIST_MAX - 1));
  if (ids.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hmget(planKey(id), ...PLAN_FIELDS);
  const results = (await pipeline.exec()) ?? [];
  return results.flatMap(([error, values]) => {
    if (error) throw error;
    const plan = toPlan(values as (string | null)[]);
    return plan ? [plan] : [];
  });
}

/** A user's subscription ids, newest first. */
export function listSubscriptionIdsOfSubscriber(redis: Redis, userId: string): Promise<string[]> {
  return redis.zrevrange(subscriptionsOfSubscriberKey(userId), 0, String(SUBSCRIPTION_LIST_MAX - 1));
}

export interface PlanSubscriptionRow {
  subscriptionId: string;
  subscriberUserId: string;
  status: string;
}

/** A plan's subscriptions with subscriber and status, oldest first. */
export async function listSubscriptionsOfPlan(redis: Redis, planId: string): Promise<PlanSubscriptionRow[]> {
  const ids = await redis.zrange(subscriptionsOfPlanKey(planId), 0, String(SUBSCRIPTION_LIST_MAX - 1));
  if (ids.length === 0) return [];
  const pipeline = redis.pipeline();
  for (const id of ids) pipeline.hmget(subscriptionKey(id), 'subscriber_id', 'status');
  const results = (await pipeline.exec()) ?? [];
  return results.flatMap(([error, values], i) => {
    if (error) throw error;
    const [subscriberUserId, status] = values as (string | null)[];
    const subscriptionId = ids[i];
    return subscriptionId && subscriberUserId && status ? [{ subscriptionId, subscriberUserId, status }] : [];
  });
}

/** Every subscription id of a plan (any status), for the price-change notice; unbounded by design, read in pages. */
export async function allSubscriptionIdsOfPlan(redis: Redis, planId: string): Promise<string[]> {
  const ids: string[] = [];
  const page = 5_000;
  for (let start = 0; ; start += page) {
    const chunk = await redis.zrange(subscriptionsOfPlanKey(planId), start, String(start + page - 1));
    ids.push(...chunk);
    if (chunk.length < page) return ids;
  }
}

/**
 * Every subscription id of a plan as of a read model that has processed the log up to
 * `atLeastPosition`; undefined while it has not (the caller tries again shortly). The set is read
 * after the checkpoint, so it holds at least every subscription started before that position.
 */
export async function subscriptionIdsOfPlanAsOf(
  redis: Redis,
  planId: string,
  atLeastPosition: bigint,
  checkpointKey = DEFAULT_CHECKPOINT_KEY,
): Promise<string[] | undefined> {
  const checkpoint = parseCheckpoint(await redis.get(checkpointKey));
  if (checkpoint.kind !== 'position' || checkpoint.position < atLeastPosition) return undefined;
  return allSubscriptionIdsOfPlan(redis, planId);
}

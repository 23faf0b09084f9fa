/** Reads of the plans and subscriptions read model (ADR 037). */
import { LIST_PAGE_MAX, type PlanOutput } from '@quern/core/plans';
import type { Redis } from 'ioredis';
import { parseCheckpoint } from '../checkpoint.js';
import { DEFAULT_CHECKPOINT_KEY } from '../types.js';
import { planKey, plansOfProviderKey, subscriptionKey, subscriptionsOfPlanKey, subscriptionsOfSubscriberKey } from './keys.js';

const PLAN_FIELDS = ['id', 'name', 'description', 'price', 'currency', 'duration', 'provider_id', 'created_at', 'updated_at'] as const;
/** A bound on one list read: a provider's plans, a user's subscriptions, a plan's subscribers (a page of the API's lists). */
export const SUBSCRIPTION_LIST_MAX = LIST_PAGE_MAX;

function toPlan(values: (string | null)[]): PlanOutput | undefined {
  const [id, name, description, price, currency, duration, provider_id, created_at, updated_at] = values;
  if (!id || !name || !description || !price || currency !== 'mlx' || !provider_id || !created_at || !updated_at) return undefined;
  if (duration !== 'weekly' && duration !== 'monthly' && duration !== 'yearly') return undefined;
  return { id, name, description, price: Number(price), currency, duration, provider_id, created_at, updated_at };
}

/** A page of a list: the ids and, when more follow, the score (log position) the next page starts after. */
export interface IdPage {
  ids: string[];
  next: bigint | undefined;
}

/**
 * `limit` members of a sorted set after the score `after` (exclusive), oldest first or newest
 * first. Scores are the log positions of the creating events: unique, so no member is skipped or
 * repeated between pages, whatever is added or removed meanwhile.
 */
export async function pageOfSortedSet(
  redis: Redis,
  key: string,
  page: { limit: number; after?: bigint; newestFirst?: boolean },
): Promise<IdPage> {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > SUBSCRIPTION_LIST_MAX)
    throw new RangeError(`limit must be 1 to ${SUBSCRIPTION_LIST_MAX}`);
  const from = page.after === undefined ? (page.newestFirst ? '+inf' : '-inf') : `(${page.after}`;
  const to = page.newestFirst ? '-inf' : '+inf';
  const flat = page.newestFirst
    ? await redis.zrevrangebyscore(key, from, to, 'WITHSCORES', 'LIMIT', 0, page.limit + 1)
    : await redis.zrangebyscore(key, from, to, 'WITHSCORES', 'LIMIT', 0, page.limit + 1);
  const ids: string[] = [];
  const scores: string[] = [];
  for (let i = 0; i < flat.length; i += 2) {
    ids.push(flat[i] as string);
    scores.push(flat[i + 1] as string);
  }
  if (ids.length <= page.limit) return { ids, next: undefined };
  return { ids: ids.slice(0, page.limit), next: BigInt(scores[page.limit - 1] as string) };
}

/** Every id of a list, read a page at a time (account closing: all of them, however many). */
export async function allOfSortedSet(redis: Redis, key: string): Promise<string[]> {
  const ids: string[] = [];
  let after: bigint | undefined;
  for (;;) {
    const page = await pageOfSortedSet(redis, key, { limit: SUBSCRIPTION_LIST_MAX, after });
    ids.push(...page.ids);
    if (page.next === undefined) return ids;
    after = page.next;
  }
}

/** A page of a provider's live plans, oldest first. */
export async function pagePlansOfProvider(
  redis: Redis,
  providerUserId: string,
  page: { limit: number; after?: bigint },
): Promise<{ plans: PlanOutput[]; next: bigint | undefined }> {
  const { ids, next } = await pageOfSortedSet(redis, plansOfProviderKey(providerUserId), page);
  return { plans: await plansByIds(redis, ids), next };
}

/** Every live plan id of a provider, however many. */
export const allPlanIdsOfProvider = (redis: Redis, providerUserId: string): Promise<string[]> =>
  allOfSortedSet(redis, plansOfProviderKey(providerUserId));

async function plansByIds(redis: Redis, ids: string[]): Promise<PlanOutput[]> {
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

/** A page of a user's subscription ids, newest first. */
export const pageSubscriptionIdsOfSubscriber = (redis: Redis, userId: string, page: { limit: number; after?: bigint }): Promise<IdPage> =>
  pageOfSortedSet(redis, subscriptionsOfSubscriberKey(userId), { ...page, newestFirst: true });

/** Every subscription id of a user, however many. */
export const allSubscriptionIdsOfSubscriber = (redis: Redis, userId: string): Promise<string[]> =>
  allOfSortedSet(redis, subscriptionsOfSubscriberKey(userId));

export interface PlanSubscriptionRow {
  subscriptionId: string;
  subscriberUserId: string;
  status: string;
}

/** A page of a plan's subscriptions with subscriber and status, oldest first. */
export async function pageSubscriptionsOfPlan(
  redis: Redis,
  planId: string,
  page: { limit: number; after?: bigint },
): Promise<{ rows: PlanSubscriptionRow[]; next: bigint | undefined }> {
  const { ids, next } = await pageOfSortedSet(redis, subscriptionsOfPlanKey(planId), page);
  return { rows: await rowsByIds(redis, ids), next };
}

async function rowsByIds(redis: Redis, ids: string[]): Promise<PlanSubscriptionRow[]> {
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
export const allSubscriptionIdsOfPlan = (redis: Redis, planId: string): Promise<string[]> =>
  allOfSortedSet(redis, subscriptionsOfPlanKey(planId));

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

/**
 * The price-change job (issue 13): after a PlanUpdated that changed the price, every subscription
 * of the plan records SubscriptionPriceChangeAnnounced for that plan revision (which asks for the
 * subscriber's e-mail), then the plan stream records PlanPriceChangeAnnounced, which closes the
 * job. Each step is idempotent in core (one announcement per subscription and plan revision), so
 * a re-run or a re-derived job only appends what is missing.
 *
 * The plan's subscriptions come from a read model; until it has processed the edit's position it
 * answers undefined and the job looks again a second later, without holding a worker.
 */
import type { EventStore, Clock } from '@quern/core';
import { planStream, toPlanEvent } from '@quern/core/plans';
import { announcePriceChange, type SubscriptionDeps } from '@quern/core/subscriptions';
import { parsePayload } from '../job/parse-payload.js';
import type { ResumableJob } from '../job/resumable.js';
import { planPriceNoticePayload } from './payload.js';

/** The subscriptions of a plan, from a read model (the lead's projection; test-support has one over the log). */
export interface PlanSubscriptions {
  /** Every subscription ever opened on the plan, or undefined when the model has not reached `atLeastPosition` yet. */
  subscriptionIdsOfPlan(planId: string, atLeastPosition: bigint): Promise<string[] | undefined>;
}

export interface PlanPriceNoticeDeps extends SubscriptionDeps {
  store: EventStore;
  clock: Clock;
  planSubscriptions: PlanSubscriptions;
}

export const READ_MODEL_RETRY_MS = 1_000;

export type PlanPriceNoticeResult = { outcome: 'announced'; subscriptions: number } | { outcome: 'already-announced' };

async function alreadyAnnounced(store: EventStore, planId: string, planRevision: string): Promise<boolean> {
  const records = await store.readStream(planStream(planId));
  return records.some((record) => {
    const event = toPlanEvent(record);
    return event?.type === 'PlanPriceChangeAnnounced' && event.data.planRevision === planRevision;
  });
}

export async function announcePlanPriceChange(job: ResumableJob, deps: PlanPriceNoticeDeps): Promise<PlanPriceNoticeResult> {
  const { planId, planRevision, position, previousPriceMlx, priceMlx } = parsePayload(planPriceNoticePayload, job.data);
  if (await alreadyAnnounced(deps.store, planId, planRevision)) return { outcome: 'already-announced' };
  const subscriptionIds = await deps.planSubscriptions.subscriptionIdsOfPlan(planId, BigInt(position));
  if (subscriptionIds === undefined) return job.runAgainAt(Date.now() + READ_MODEL_RETRY_MS);
  // Ended and cancelled subscriptions are not told (core decides); the count is of those told.
  let told = 0;
  for (const subscriptionId of subscriptionIds) {
    const { state } = await announcePriceChange(deps, subscriptionId, { planRevision, previousPriceMlx, priceMlx });
    if (state.announcedPlanRevisions.includes(planRevision)) told += 1;
  }
  await deps.store.append(
    planStream(planId),
    [
      {
        type: 'PlanPriceChangeAnnounced',
        data: { planId, planRevision, subscriptions: told, announcedAt: deps.clock.now().toISOString() },
      },
    ],
    'any',
  );
  return { outcome: 'announced', subscriptions: told };
}

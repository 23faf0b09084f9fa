/**
 * The price-change announcement's dispatch rule (ADR 037): a PlanUpdated that changed the price asks
 * for the announcement to every subscriber, closed by PlanPriceChangeAnnounced for that plan revision.
 */
import type { RecordedEvent } from '@quern/core';
import { type PlanEvent, toPlanEvent } from '@quern/core/plans';
import type { DispatchRule } from '../job/dispatch-rule.js';
import { PLAN_PRICE_NOTICE_JOB_NAME, PLAN_PRICE_NOTICE_QUEUE, planPriceNoticeJobId, planPriceNoticePayload } from './payload.js';

function readPlanEvent<T extends PlanEvent['type']>(recorded: RecordedEvent, type: T): Extract<PlanEvent, { type: T }> {
  const event = toPlanEvent(recorded);
  if (!event || event.type !== type) throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${type}`);
  return event as Extract<PlanEvent, { type: T }>;
}

const priceNoticeOf = (recorded: RecordedEvent) => {
  const { data } = readPlanEvent(recorded, 'PlanUpdated');
  return planPriceNoticePayload.parse({
    planId: data.planId,
    planRevision: recorded.revision.toString(),
    position: recorded.position.toString(),
    previousPriceMlx: data.previousPriceMlx,
    priceMlx: data.priceMlx,
  });
};

/** An edit that changed the price is announced to every subscription of the plan, once per edit. */
export const planPriceNoticeRule: DispatchRule = {
  request: 'PlanUpdated',
  completions: ['PlanPriceChangeAnnounced'],
  queue: PLAN_PRICE_NOTICE_QUEUE,
  name: PLAN_PRICE_NOTICE_JOB_NAME,
  jobId: (recorded) => {
    const { planId, planRevision } = priceNoticeOf(recorded);
    return planPriceNoticeJobId(planId, planRevision);
  },
  payload: priceNoticeOf,
  matchCompletion: (recorded) => {
    const { data } = readPlanEvent(recorded, 'PlanPriceChangeAnnounced');
    return planPriceNoticeJobId(data.planId, data.planRevision);
  },
  needsJob: (recorded) => readPlanEvent(recorded, 'PlanUpdated').data.previousPriceMlx !== undefined,
};

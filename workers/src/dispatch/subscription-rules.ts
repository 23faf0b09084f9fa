/**
 * The subscription dispatch rules (issue 13, ADR 037).
 *
 * Renewals: a charge asks for the next period's first attempt (SubscriptionStarted → period 2,
 * SubscriptionRenewed(p) → p+1) and a failure for the same period's next attempt. Each job is
 * closed by the one event core appends for its (period, attempt): renewed, failed or ended. The
 * job waits in BullMQ's delayed set until the due time, so the open renewals are always in the
 * log and re-derived from it after a Redis loss.
 *
 * E-mails: one job per e-mail, closed by the SubscriptionEmailSent naming it. Price changes: a
 * PlanUpdated that changed the price asks for the announcement to every subscriber, closed by
 * PlanPriceChangeAnnounced for that plan revision.
 */
import type { RecordedEvent } from '@quern/core';
import { type PlanEvent, toPlanEvent } from '@quern/core/plans';
import { type SubscriptionEmailKind, type SubscriptionEvent, subscriptionEmailId, toSubscriptionEvent } from '@quern/core/subscriptions';
import {
  PLAN_PRICE_NOTICE_JOB_NAME,
  PLAN_PRICE_NOTICE_QUEUE,
  planPriceNoticeJobId,
  planPriceNoticePayload,
} from '../plan-price-notice/payload.js';
import {
  SUBSCRIPTION_EMAIL_JOB_NAME,
  SUBSCRIPTION_EMAIL_QUEUE,
  subscriptionEmailJobId,
  subscriptionEmailPayload,
} from '../subscription-email/payload.js';
import {
  SUBSCRIPTION_RENEWAL_JOB_NAME,
  SUBSCRIPTION_RENEWAL_QUEUE,
  subscriptionRenewalJobId,
  subscriptionRenewalPayload,
} from '../subscription-renewal/payload.js';
import type { DispatchRule } from './rules.js';
import { typedRule } from './typed-rule.js';

type SubscriptionEventOf<T extends SubscriptionEvent['type']> = Extract<SubscriptionEvent, { type: T }>;
type RenewalCompletion = SubscriptionEventOf<'SubscriptionRenewed' | 'SubscriptionChargeFailed' | 'SubscriptionEnded'>;
const RENEWAL_COMPLETIONS = ['SubscriptionRenewed', 'SubscriptionChargeFailed', 'SubscriptionEnded'] as const;

const renewalJob = (subscriptionId: string, period: number, attempt: number) =>
  subscriptionRenewalPayload.parse({ subscriptionId, period, attempt });

function renewalRule<Request extends SubscriptionEventOf<'SubscriptionStarted' | 'SubscriptionRenewed' | 'SubscriptionChargeFailed'>>(
  request: Request['type'],
  next: (request: Request) => { period: number; attempt: number },
): DispatchRule {
  const job = (event: Request) => renewalJob(event.data.subscriptionId, next(event).period, next(event).attempt);
  return typedRule<Request, RenewalCompletion>({
    read: toSubscriptionEvent,
    request,
    completions: RENEWAL_COMPLETIONS,
    queue: SUBSCRIPTION_RENEWAL_QUEUE,
    name: SUBSCRIPTION_RENEWAL_JOB_NAME,
    jobId: (event) => {
      const { subscriptionId, period, attempt } = job(event);
      return subscriptionRenewalJobId(subscriptionId, period, attempt);
    },
    payload: (event) => job(event),
    matchCompletion: ({ data }) => subscriptionRenewalJobId(data.subscriptionId, data.period, data.attempt),
  });
}

export const subscriptionRenewalRules: readonly DispatchRule[] = [
  renewalRule<SubscriptionEventOf<'SubscriptionStarted'>>('SubscriptionStarted', ({ data }) => ({ period: data.period + 1, attempt: 1 })),
  renewalRule<SubscriptionEventOf<'SubscriptionRenewed'>>('SubscriptionRenewed', ({ data }) => ({ period: data.period + 1, attempt: 1 })),
  renewalRule<SubscriptionEventOf<'SubscriptionChargeFailed'>>('SubscriptionChargeFailed', ({ data }) => ({
    period: data.period,
    attempt: data.attempt + 1,
  })),
];

function readSubscriptionEvent<T extends SubscriptionEvent['type']>(recorded: RecordedEvent, type: T): SubscriptionEventOf<T> {
  const event = toSubscriptionEvent(recorded);
  if (!event || event.type !== type) throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${type}`);
  return event as SubscriptionEventOf<T>;
}

/** One e-mail asked for by one event: its kind, and its key from the event (so the same event always names the same e-mail). */
function emailRule(
  request: SubscriptionEvent['type'],
  kind: SubscriptionEmailKind,
  keyOf: (event: SubscriptionEvent, recorded: RecordedEvent) => string,
): DispatchRule {
  const payloadOf = (recorded: RecordedEvent) => {
    const event = readSubscriptionEvent(recorded, request);
    return subscriptionEmailPayload.parse({ subscriptionId: event.data.subscriptionId, kind, key: keyOf(event, recorded) });
  };
  return {
    request,
    completions: ['SubscriptionEmailSent'],
    queue: SUBSCRIPTION_EMAIL_QUEUE,
    name: SUBSCRIPTION_EMAIL_JOB_NAME,
    jobId: (recorded) => {
      const payload = payloadOf(recorded);
      return subscriptionEmailJobId(payload.subscriptionId, subscriptionEmailId(payload.kind, payload.key));
    },
    payload: payloadOf,
    matchCompletion: (recorded) => {
      const { data } = readSubscriptionEvent(recorded, 'SubscriptionEmailSent');
      return subscriptionEmailJobId(data.subscriptionId, data.emailId);
    },
  };
}

const periodKey = (event: SubscriptionEvent) => ('period' in event.data ? String(event.data.period) : '');
const failureKey = (event: SubscriptionEvent) =>
  event.type === 'SubscriptionChargeFailed' ? `${event.data.period}-${event.data.attempt}` : '';
/** A subscription is cancelled once: the event's revision names that cancellation. */
const revisionKey = (_: SubscriptionEvent, recorded: RecordedEvent) => recorded.revision.toString();
const planRevisionKey = (event: SubscriptionEvent) => (event.type === 'SubscriptionPriceChangeAnnounced' ? event.data.planRevision : '');

export const subscriptionEmailRules: readonly DispatchRule[] = [
  emailRule('SubscriptionStarted', 'receipt', periodKey),
  emailRule('SubscriptionStarted', 'newSubscriberProvider', periodKey),
  emailRule('SubscriptionRenewed', 'receipt', periodKey),
  emailRule('SubscriptionChargeFailed', 'chargeFailed', failureKey),
  emailRule('SubscriptionCancelled', 'cancelledSubscriber', revisionKey),
  emailRule('SubscriptionCancelled', 'cancelledProvider', revisionKey),
  emailRule('SubscriptionPriceChangeAnnounced', 'priceChange', planRevisionKey),
];

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

export const subscriptionRules: readonly DispatchRule[] = [...subscriptionRenewalRules, ...subscriptionEmailRules, planPriceNoticeRule];

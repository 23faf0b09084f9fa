/**
 * The renewals' dispatch rules (issue 13, ADR 037): a charge asks for the next period's first
 * attempt (SubscriptionStarted → period 2, SubscriptionRenewed(p) → p+1) and a failure for the same
 * period's next attempt. Each job is closed by the one event core appends for its (period, attempt):
 * renewed, failed or ended. The job waits in BullMQ's delayed set until the due time, so the open
 * renewals are always in the log and re-derived from it after a Redis loss.
 */
import { type SubscriptionEvent, toSubscriptionEvent } from '@quern/core/subscriptions';
import { type DispatchRule, typedRule } from '../job/dispatch-rule.js';
import {
  SUBSCRIPTION_RENEWAL_JOB_NAME,
  SUBSCRIPTION_RENEWAL_QUEUE,
  subscriptionRenewalJobId,
  subscriptionRenewalPayload,
} from './payload.js';

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

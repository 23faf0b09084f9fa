/** The subscription e-mails' dispatch rules (ADR 037): one job per e-mail, closed by the SubscriptionEmailSent naming it. */
import type { RecordedEvent } from '@quern/core';
import { type SubscriptionEmailKind, type SubscriptionEvent, subscriptionEmailId, toSubscriptionEvent } from '@quern/core/subscriptions';
import type { DispatchRule } from '../job/dispatch-rule.js';
import { SUBSCRIPTION_EMAIL_JOB_NAME, SUBSCRIPTION_EMAIL_QUEUE, subscriptionEmailJobId, subscriptionEmailPayload } from './payload.js';

type SubscriptionEventOf<T extends SubscriptionEvent['type']> = Extract<SubscriptionEvent, { type: T }>;

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

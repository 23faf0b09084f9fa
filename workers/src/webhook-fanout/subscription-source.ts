/**
 * The subscription webhooks (issue 13): their payload is the subscription as it was right after
 * the event (the stream folded up to the event's revision, so a late fan-out still reports that
 * moment, not the present). They go to the plan's provider, the merchant of a subscription. Which
 * subscription event reports which type is the catalogue's (core/src/webhooks/catalogue.ts).
 */
import {
  type SubscriptionEvent,
  type SubscriptionState,
  evolveSubscription,
  subscriptionStream,
  toSubscriptionEvent,
  toSubscriptionOutput,
} from '@quern/core/subscriptions';
import type { SubscriptionWebhookType } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import type { WebhookReportReader } from './source.js';

/** When the event happened, as its own data says. */
function occurredAt(event: SubscriptionEvent): string {
  switch (event.type) {
    case 'SubscriptionStarted':
    case 'SubscriptionRenewed':
      return event.data.chargedAt;
    case 'SubscriptionChargeFailed':
      return event.data.failedAt;
    case 'SubscriptionCancelled':
      return event.data.cancelledAt;
    default:
      throw new Error(`${event.type} reports no webhook`);
  }
}

/** The report of a subscription event the catalogue names for one of its subscription types. */
export const subscriptionWebhookReport: WebhookReportReader<SubscriptionWebhookType> = async ({ store }, recorded) => {
  const source = toSubscriptionEvent(recorded);
  if (!source) throw new UnrecoverableError(`Malformed ${recorded.type} at ${recorded.streamId}@${recorded.revision}`);
  const records = await store.readStream(subscriptionStream(source.data.subscriptionId), { maxCount: Number(recorded.revision) + 1 });
  let state: SubscriptionState | undefined;
  for (const record of records) {
    const event = toSubscriptionEvent(record);
    if (!event) throw new UnrecoverableError(`Unreadable ${record.type} at ${record.streamId}@${record.revision}`);
    state = evolveSubscription(state, event, record.revision);
  }
  if (!state || state.revision !== recorded.revision)
    throw new UnrecoverableError(`No subscription at ${recorded.streamId}@${recorded.revision}`);
  return { merchantUserId: state.providerUserId, data: toSubscriptionOutput(state), occurredAt: occurredAt(source) };
};

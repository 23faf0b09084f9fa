/**
 * The subscription webhooks (issue 13): which subscription event reports which type, and its
 * payload, the subscription as it was right after the event (the stream folded up to the event's
 * revision, so a late fan-out still reports that moment, not the present). They go to the plan's
 * provider, the merchant of a subscription.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import {
  type SubscriptionEvent,
  type SubscriptionState,
  evolveSubscription,
  subscriptionStream,
  toSubscriptionEvent,
  toSubscriptionOutput,
} from '@quern/core/subscriptions';
import type { SubscriptionWebhookType, WebhookSource } from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';

const TYPES = {
  SubscriptionStarted: 'subscription.created',
  SubscriptionRenewed: 'subscription.renewed',
  SubscriptionChargeFailed: 'subscription.past_due',
  SubscriptionCancelled: 'subscription.cancelled',
} as const satisfies Partial<Record<SubscriptionEvent['type'], SubscriptionWebhookType>>;
type SourceType = keyof typeof TYPES;

export const SUBSCRIPTION_WEBHOOK_SOURCES = Object.keys(TYPES) as SourceType[];

const isSource = (type: string): type is SourceType => Object.hasOwn(TYPES, type);

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

/** The webhook a subscription event stands for, or undefined when the event is not one that reports. */
export async function subscriptionWebhookSource(store: EventStore, recorded: RecordedEvent): Promise<WebhookSource | undefined> {
  if (!isSource(recorded.type)) return undefined;
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
  return {
    event: { streamId: recorded.streamId, revision: recorded.revision, position: recorded.position },
    merchantUserId: state.providerUserId,
    webhook: { type: TYPES[recorded.type], data: toSubscriptionOutput(state) },
    occurredAt: occurredAt(source),
  };
}

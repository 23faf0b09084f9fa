/**
 * The webhook dispatch rules. A source event asks for a fan-out (done when its WebhookFannedOut
 * marker is recorded); a scheduled delivery or a redelivery asks for a delivery run (done when
 * the run succeeded or failed). Job ids come from the log alone, so re-derivation agrees.
 */
import type { RecordedEvent } from '@quern/core';
import {
  toWebhookEvent,
  WEBHOOK_REPORTING_EVENT_TYPES,
  webhookFanOutId,
  webhookTypeReportedBy,
  type WebhookEvent,
} from '@quern/core/webhooks';
import type { DispatchRule } from '../job/dispatch-rule.js';
import {
  WEBHOOK_DELIVERY_JOB_NAME,
  WEBHOOK_DELIVERY_QUEUE,
  webhookDeliveryJobId,
  webhookDeliveryPayload,
} from '../webhook-delivery/payload.js';
import { WEBHOOK_FANOUT_JOB_NAME, WEBHOOK_FANOUT_QUEUE, webhookFanOutJobId, webhookFanOutPayload } from './payload.js';

function webhookEventOf<T extends WebhookEvent['type']>(recorded: RecordedEvent, types: readonly T[]): Extract<WebhookEvent, { type: T }> {
  const event = toWebhookEvent(recorded);
  if (!event || !(types as readonly string[]).includes(event.type))
    throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed ${types.join(' or ')}`);
  return event as Extract<WebhookEvent, { type: T }>;
}

const fanOutJobIdOf = (recorded: RecordedEvent) =>
  webhookFanOutJobId(webhookFanOutId({ streamId: recorded.streamId, revision: recorded.revision }));

function fanOutRule(request: string): DispatchRule {
  return {
    request,
    completions: ['WebhookFannedOut'],
    queue: WEBHOOK_FANOUT_QUEUE,
    name: WEBHOOK_FANOUT_JOB_NAME,
    jobId: fanOutJobIdOf,
    payload: (recorded) =>
      webhookFanOutPayload.parse({
        streamId: recorded.streamId,
        revision: recorded.revision.toString(),
        position: recorded.position.toString(),
      }),
    matchCompletion: (recorded) => webhookFanOutJobId(webhookEventOf(recorded, ['WebhookFannedOut']).data.fanOutId),
    // Only an event that reports a type asks for a fan-out: a posted send that is no payout, or an
    // invoice event that leaves its status as it was, does not (the catalogue says which, from the event alone).
    needsJob: (recorded) => webhookTypeReportedBy(recorded) !== undefined,
  };
}

/** One rule per event that reports a type of the catalogue (core/src/webhooks/catalogue.ts). */
export const webhookFanOutRules: readonly DispatchRule[] = WEBHOOK_REPORTING_EVENT_TYPES.map(fanOutRule);

const deliveryCompletions = ['WebhookDeliverySucceeded', 'WebhookDeliveryFailed'] as const;

function deliveryRule(request: 'WebhookDeliveryScheduled' | 'WebhookRedeliveryRequested'): DispatchRule {
  const runOf = (recorded: RecordedEvent) => {
    const event = webhookEventOf(recorded, [request]);
    return webhookDeliveryPayload.parse({
      deliveryId: event.data.deliveryId,
      run: event.type === 'WebhookRedeliveryRequested' ? event.data.run : 0,
    });
  };
  return {
    request,
    completions: deliveryCompletions,
    queue: WEBHOOK_DELIVERY_QUEUE,
    name: WEBHOOK_DELIVERY_JOB_NAME,
    jobId: (recorded) => {
      const { deliveryId, run } = runOf(recorded);
      return webhookDeliveryJobId(deliveryId, run);
    },
    payload: runOf,
    matchCompletion: (recorded) => {
      const { data } = webhookEventOf(recorded, deliveryCompletions);
      return webhookDeliveryJobId(data.deliveryId, data.run);
    },
  };
}

export const webhookDeliveryRules: readonly DispatchRule[] = [
  deliveryRule('WebhookDeliveryScheduled'),
  deliveryRule('WebhookRedeliveryRequested'),
];

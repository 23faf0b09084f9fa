/**
 * Replaying a source event to one endpoint (issue 28, ADR 088), through the delivery path every
 * webhook takes. A delivery the endpoint already has gets a new run (WebhookRedeliveryRequested:
 * same stream, same body, same `webhook-id`); one it never had is opened as the fan-out would have
 * opened it, under the id the fan-out would have given it (webhookDeliveryId), so a receiver that
 * got the original deduplicates the replay. A delivery still being attempted is left to finish,
 * and so is an event whose fan-out has not run yet for an endpoint it will reach: asking twice in
 * a row queues nothing the second time.
 */
import { type EventStore, WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import type { Clock } from '../shared/clock.js';
import type { QuernMode } from '../shared/quern-mode.js';
import { decideRedelivery } from './decider.js';
import { openRun, WEBHOOK_REDELIVERIES_MAX } from './deliveries.js';
import { endpointLiveAt, type WebhookEndpoint } from './endpoints.js';
import { WEBHOOK_BODY_LENGTH_MAX, webhookDeliveryStream, webhookFanOutStream } from './events.js';
import { loadWebhookDelivery, scheduledDeliveryOf, WebhookBodyTooLargeError, type WebhookSource } from './handlers.js';
import { webhookDeliveryId, webhookFanOutId } from './ids.js';
import { webhookBody } from './payload.js';

/** `queued`: a run was asked for; `pending`: one is under way or coming; `limited`: the delivery used up its redeliveries. */
export type WebhookReplayOutcome = 'queued' | 'pending' | 'limited';

export async function replayWebhookSource(
  deps: { store: EventStore; clock: Clock; mode: QuernMode },
  endpoint: WebhookEndpoint,
  source: WebhookSource,
): Promise<WebhookReplayOutcome> {
  const ref = { streamId: source.event.streamId, revision: source.event.revision };
  const deliveryId = webhookDeliveryId(endpoint.endpointId, ref);
  const { state, revision } = await loadWebhookDelivery(deps.store, deliveryId);
  try {
    if (state.scheduled) {
      if (openRun(state)) return 'pending';
      if (state.runs.length > WEBHOOK_REDELIVERIES_MAX) return 'limited';
      await deps.store.append(webhookDeliveryStream(deliveryId), [decideRedelivery(state, deps.clock.now())], revision);
      return 'queued';
    }
    // The fan-out of this event will open the delivery itself: opening it first would make its
    // atomic append fail, and the fan-out would never record itself done.
    const fanOutDone = (await deps.store.readStream(webhookFanOutStream(webhookFanOutId(ref)), { maxCount: 1 })).length > 0;
    if (!fanOutDone && endpointLiveAt(endpoint, source.event.position)) return 'pending';
    const body = webhookBody(source.webhook, source.occurredAt, deps.mode);
    if (body.length > WEBHOOK_BODY_LENGTH_MAX) throw new WebhookBodyTooLargeError(WEBHOOK_BODY_LENGTH_MAX);
    const scheduled = scheduledDeliveryOf(endpoint.endpointId, source, body, deps.clock.now().toISOString());
    await deps.store.append(webhookDeliveryStream(deliveryId), [scheduled], 'no_stream');
    return 'queued';
  } catch (error) {
    // Another request or an attempt moved the stream meanwhile: a run is under way.
    if (error instanceof WrongExpectedRevisionError) return 'pending';
    throw error;
  }
}

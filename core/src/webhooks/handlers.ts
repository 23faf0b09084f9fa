/**
 * Webhook command handlers: load a stream, decide, append. Endpoint changes are decided on the
 * merchant's endpoint stream (optimistic concurrency, retried on a lost race); the fan-out opens
 * each delivery stream with 'no_stream' together with its own marker in one atomic append, so a
 * repeated fan-out appends nothing and a crash in the middle leaves nothing half done.
 */
import type { Clock } from '../shared/clock.js';
import { handleCommand, readState, type StreamModel, strictParser } from '../shared/command-handler.js';
import { handleCommandWithEvidence } from '../shared/command-evidence.js';
import {
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../shared/ports/event-store.js';
import { AppError } from '../shared/errors.js';
import type { QuernMode } from '../shared/quern-mode.js';
import { endpointWants } from './catalogue.js';
import type { WebhookAttemptRecord } from './commands.js';
import {
  decideAbandonRun,
  decideAttempt,
  decideCreateEndpoint,
  decideDeleteEndpoint,
  decideRedelivery,
  decideRotateSecret,
} from './decider.js';
import { emptyWebhookDelivery, evolveWebhookDelivery, type WebhookDeliveryState } from './deliveries.js';
import {
  emptyWebhookEndpoints,
  endpointLiveAt,
  type WebhookEndpoint,
  type WebhookEndpointsState,
  evolveWebhookEndpoints,
} from './endpoints.js';
import {
  toWebhookDeliveryEvent,
  toWebhookEndpointEvent,
  type WebhookDeliveryEvent,
  type WebhookDeliveryScheduled,
  type WebhookEndpointEvent,
  type WebhookFannedOut,
  WEBHOOK_BODY_LENGTH_MAX,
  webhookDeliveryStream,
  webhookEndpointsStream,
  webhookFanOutStream,
} from './events.js';
import { webhookDeliveryId, webhookEndpointIdOf, webhookFanOutId } from './ids.js';
import { type WebhookData, webhookBody } from './payload.js';
import type { WebhookEventType } from './catalogue.js';

export interface WebhookDeps {
  store: EventStore;
  clock: Clock;
  /** A fresh UUID per call. */
  newId: () => string;
}

/** Random bytes in a secret: 32 (256 bits), within Standard Webhooks' 24 to 64. */
export const WEBHOOK_SECRET_BYTES = 32;

/** `whsec_` + standard base64 of 24 to 64 random bytes (the caller encodes; core has no base64). */
export const WEBHOOK_SECRET_PATTERN = /^whsec_(?:[A-Za-z0-9+/]{4}){8,22}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The merchant's endpoints stream as the pipeline reads it. An endpoint keeps the log position
 * of its creation and deletion (endpointLiveAt), which the fold takes from the recorded event.
 */
export const webhookEndpointsModel: StreamModel<WebhookEndpointsState, WebhookEndpointEvent> = {
  initialState: emptyWebhookEndpoints,
  evolve: (state, event, recorded) => {
    // Only events read from the log are folded here: an endpoint's position is part of its state.
    if (!recorded) throw new Error('Webhook endpoint events are folded with their log position');
    return evolveWebhookEndpoints(state, event, recorded.position);
  },
  parse: strictParser(toWebhookEndpointEvent),
};

/** The merchant's endpoints, with the revision to append at. */
export function loadWebhookEndpoints(store: EventStore, merchantUserId: string) {
  return readState(store, webhookEndpointsStream(merchantUserId), webhookEndpointsModel);
}

/** A delivery stream as the pipeline reads it: every event parsed with its schema. */
export const webhookDeliveryModel: StreamModel<WebhookDeliveryState, WebhookDeliveryEvent> = {
  initialState: emptyWebhookDelivery,
  evolve: evolveWebhookDelivery,
  parse: strictParser(toWebhookDeliveryEvent),
};

export function loadWebhookDelivery(store: EventStore, deliveryId: string) {
  return readState(store, webhookDeliveryStream(deliveryId), webhookDeliveryModel);
}

/** One change of the merchant's endpoints through the command pipeline (a lost race is decided again). */
async function changeEndpoints<E extends WebhookEndpointEvent>(
  deps: WebhookDeps,
  merchantUserId: string,
  decide: (state: WebhookEndpointsState) => E,
): Promise<E> {
  const handled = await handleCommand(deps, webhookEndpointsStream(merchantUserId), webhookEndpointsModel, (state) => {
    const event = decide(state);
    return { events: [event], result: event };
  });
  return handled.result;
}

/** Creates an endpoint; the URL and events are checked by the caller (syntax, and DNS outside core). */
export async function createWebhookEndpoint(
  deps: WebhookDeps,
  input: { merchantUserId: string; url: string; events: WebhookEventType[]; secret: string },
): Promise<Omit<WebhookEndpoint, 'createdPosition'>> {
  const endpointId = webhookEndpointIdOf(deps.newId());
  const { secret } = input;
  if (!WEBHOOK_SECRET_PATTERN.test(secret)) throw new RangeError('A webhook secret is whsec_ and the base64 of 24 to 64 bytes');
  const now = deps.clock.now();
  const event = await changeEndpoints(deps, input.merchantUserId, (state) =>
    decideCreateEndpoint(state, { endpointId, merchantUserId: input.merchantUserId, url: input.url, events: input.events, secret, now }),
  );
  const { url, events, createdAt } = event.data;
  return { endpointId, url, events, secret, createdAt };
}

export async function deleteWebhookEndpoint(deps: WebhookDeps, merchantUserId: string, endpointId: string): Promise<void> {
  await changeEndpoints(deps, merchantUserId, (state) =>
    decideDeleteEndpoint(state, { endpointId, merchantUserId, now: deps.clock.now() }),
  );
}

/**
 * Gives a live endpoint a new secret (made by the caller, like the creation's); the replaced one
 * keeps signing for WEBHOOK_SECRET_OVERLAP_MS (ADR 056). A 404 for an unknown, deleted or other
 * merchant's endpoint, and nothing is appended. `admit` (the caller's rate limit) runs once the
 * endpoint is known live, before the append, so a wrong id uses up nothing. Answers the endpoint
 * as the append left it, from the state the decision read (no second read that a deletion in
 * between could turn into a 404), and never the replaced secret.
 */
export async function rotateWebhookSecret(
  deps: WebhookDeps,
  input: { merchantUserId: string; endpointId: string; secret: string; admit?: () => Promise<void> },
): Promise<Omit<WebhookEndpoint, 'createdPosition' | 'previousSecret'>> {
  const { merchantUserId, endpointId, secret } = input;
  if (!WEBHOOK_SECRET_PATTERN.test(secret)) throw new RangeError('A webhook secret is whsec_ and the base64 of 24 to 64 bytes');
  const now = deps.clock.now();
  const command = { endpointId, merchantUserId, secret, now };
  let admitted = false;
  const handled = await handleCommandWithEvidence(
    deps,
    webhookEndpointsStream(merchantUserId),
    webhookEndpointsModel,
    async (state) => {
      // Decided once on the state read, so a wrong id is refused (404) before the caller's rate
      // limit is asked and uses up nothing; a retry after a lost race is the same request.
      decideRotateSecret(state, command);
      if (!admitted) {
        admitted = true;
        await input.admit?.();
      }
    },
    (state) => ({ events: [decideRotateSecret(state, command)], result: state.endpoints.find((e) => e.endpointId === endpointId) }),
  );
  const rotated = handled.result;
  if (!rotated) throw new AppError('NOT_FOUND', 'errors:webhookEndpointNotFound');
  const { endpointId: id, url, events, createdAt } = rotated;
  return { endpointId: id, url, events, secret, createdAt };
}

/** The merchant's endpoint by id, deleted ones excluded; a 404 otherwise (another merchant's too). */
export async function findLiveWebhookEndpoint(store: EventStore, merchantUserId: string, endpointId: string): Promise<WebhookEndpoint> {
  const { state } = await loadWebhookEndpoints(store, merchantUserId);
  const endpoint = state.endpoints.find((e) => e.endpointId === endpointId && e.deletedAt === undefined);
  if (!endpoint) throw new AppError('NOT_FOUND', 'errors:webhookEndpointNotFound');
  return endpoint;
}

/** Asks for a delivery to be sent again (a new run, same webhook-id). */
export async function requestWebhookRedelivery(deps: WebhookDeps, merchantUserId: string, endpointId: string, deliveryId: string) {
  await findLiveWebhookEndpoint(deps.store, merchantUserId, endpointId);
  const { state, revision } = await loadWebhookDelivery(deps.store, deliveryId);
  if (!state.scheduled || state.scheduled.endpointId !== endpointId || state.scheduled.merchantUserId !== merchantUserId)
    throw new AppError('NOT_FOUND', 'errors:webhookDeliveryNotFound');
  const event = decideRedelivery(state, deps.clock.now());
  try {
    await deps.store.append(webhookDeliveryStream(deliveryId), [event], revision);
  } catch (error) {
    // Another request (or an attempt being recorded) moved the stream: the caller may try again.
    if (error instanceof WrongExpectedRevisionError) throw new AppError('CONFLICT', 'errors:webhookDeliveryInProgress');
    throw error;
  }
  return event.data;
}

/** What the fan-out worker found out about one source event. */
export interface WebhookSource {
  event: Pick<RecordedEvent, 'streamId' | 'revision' | 'position'>;
  merchantUserId: string;
  webhook: WebhookData;
  occurredAt: string;
  /**
   * A payout to a Quern account: its recipient as named, kept out of the body and sealed with
   * the payee's key (the body's `to` holds PAYOUT_TO_PLACEHOLDER).
   */
  payout?: { payeeUserId: string; to: string };
}

/**
 * A body longer than a delivery may store. Written, it would be an event its own readers refuse
 * (the delivery job, the delivery log's projection), so the fan-out stops before writing it.
 */
export class WebhookBodyTooLargeError extends Error {
  constructor(readonly lengthMax: number) {
    super(`A webhook body is longer than ${lengthMax} characters`);
    this.name = 'WebhookBodyTooLargeError';
  }
}

/**
 * The delivery of a source event to one endpoint, opening its stream: the fan-out's, and a
 * replay's for an endpoint the fan-out did not reach (ADR 088), so both name it and word it alike.
 */
export function scheduledDeliveryOf(endpointId: string, source: WebhookSource, body: string, now: string): WebhookDeliveryScheduled {
  const ref = { streamId: source.event.streamId, revision: source.event.revision };
  return {
    type: 'WebhookDeliveryScheduled',
    data: {
      deliveryId: webhookDeliveryId(endpointId, ref),
      endpointId,
      merchantUserId: source.merchantUserId,
      eventType: source.webhook.type,
      body,
      ...(source.payout ? { payeeUserId: source.payout.payeeUserId, payoutTo: source.payout.to } : {}),
      sourceStreamId: ref.streamId,
      sourceRevision: ref.revision.toString(),
      scheduledAt: now,
    },
  };
}

/**
 * One delivery per endpoint of the merchant that wants the type and existed when the source
 * event was recorded, plus the fan-out's marker, all in one append. Returns the delivery ids.
 * `mode` (QUERN_MODE) is the body's `livemode`.
 */
export async function fanOutWebhook(
  deps: Pick<WebhookDeps, 'store' | 'clock'> & { mode: QuernMode },
  source: WebhookSource,
): Promise<string[]> {
  const ref = { streamId: source.event.streamId, revision: source.event.revision };
  const fanOutId = webhookFanOutId(ref);
  if ((await deps.store.readStream(webhookFanOutStream(fanOutId), { maxCount: 1 })).length > 0) return [];
  const { state } = await loadWebhookEndpoints(deps.store, source.merchantUserId);
  const targets = state.endpoints.filter((e) => endpointLiveAt(e, source.event.position) && endpointWants(e.events, source.webhook.type));
  const now = deps.clock.now().toISOString();
  const body = webhookBody(source.webhook, source.occurredAt, deps.mode);
  // An invoice's body grows with its payments, which its payers choose; none is stored unreadable.
  if (targets.length > 0 && body.length > WEBHOOK_BODY_LENGTH_MAX) throw new WebhookBodyTooLargeError(WEBHOOK_BODY_LENGTH_MAX);
  const deliveries = targets.map((endpoint) => scheduledDeliveryOf(endpoint.endpointId, source, body, now));
  const marker: WebhookFannedOut = {
    type: 'WebhookFannedOut',
    data: {
      fanOutId,
      sourceStreamId: ref.streamId,
      sourceRevision: ref.revision.toString(),
      deliveryIds: deliveries.map((d) => d.data.deliveryId),
      fannedOutAt: now,
    },
  };
  const appends: StreamAppend[] = [
    ...deliveries.map((d) => ({
      streamId: webhookDeliveryStream(d.data.deliveryId),
      events: [d],
      expectedRevision: 'no_stream' as const,
    })),
    { streamId: webhookFanOutStream(fanOutId), events: [marker], expectedRevision: 'no_stream' },
  ];
  try {
    await deps.store.appendToStreams(appends);
  } catch (error) {
    // A concurrent run of the same fan-out won: its append is the one that counts.
    if (error instanceof WrongExpectedRevisionError) return [];
    throw error;
  }
  return marker.data.deliveryIds;
}

/**
 * Records an attempt, and the run's end when it delivered or was the last, at the revision the
 * attempt was decided on: two overlapping runs of one job cannot both record attempt n.
 */
export async function recordWebhookAttempt(
  deps: Pick<WebhookDeps, 'store' | 'clock'>,
  revision: ExpectedRevision,
  a: WebhookAttemptRecord,
) {
  await deps.store.append(webhookDeliveryStream(a.deliveryId), decideAttempt(a, deps.clock.now()), revision);
}

/**
 * Ends a run without another attempt: its endpoint was deleted meanwhile, or it already made as
 * many attempts as the (since shortened) schedule allows.
 */
export async function abandonWebhookRun(
  deps: Pick<WebhookDeps, 'store' | 'clock'>,
  revision: ExpectedRevision,
  ended: { deliveryId: string; run: number; reason: 'endpoint_deleted' | 'attempts_exhausted' },
) {
  await deps.store.append(webhookDeliveryStream(ended.deliveryId), [decideAbandonRun(ended, deps.clock.now())], revision);
}

/**
 * Builds a feed event from the log (ADR 088): its `data` is the object as it was right after the
 * event, folded up to the event's revision, never to the stream's end. A webhook type's object is
 * built by the fan-out's own reader (webhookSourceOf), so it is what that webhook carries; a payout
 * to a Quern account carries its recipient as the delivery does (read through the sealing store:
 * `[erased]` once the payee deleted their account), never more.
 */
import type { EventStore, QuernMode, RecordedEvent } from '@quern/core';
import { isLivemode } from '@quern/core';
import { type FeedEventOutput, type FeedEventType, type FeedOnlyType, feedEventIdOf, isFeedOnlyType } from '@quern/core/events-feed';
import { readInvoice, toInvoiceEvent, toInvoiceOutput } from '@quern/core/invoices';
import {
  emptyWebhookEndpoints,
  evolveWebhookEndpoints,
  toWebhookEndpointEvent,
  type WebhookEndpointsState,
  type WebhookEventType,
  type WebhookSource,
} from '@quern/core/webhooks';
import type { MerchantEventRef } from '@quern/projections';

export interface FeedDataDeps {
  store: EventStore;
  /** PUBLIC_URL without its trailing slash: an invoice's hosted page is under it. */
  publicUrl: string;
  mode: QuernMode;
  /**
   * The fan-out's reader of a source event (the webhook it reports, folded up to the event), given
   * by the composition root so the feed's objects are the webhooks' own and the api does not import
   * the workers.
   */
  webhookSourceOf: WebhookSourceReader;
}

/** Reads the webhook a recorded event reports, as the fan-out builds it (undefined: it reports none). */
export type WebhookSourceReader = (
  deps: { store: EventStore; publicUrl: string },
  recorded: RecordedEvent,
) => Promise<WebhookSource | undefined>;

/** The log event an entry indexes; an entry whose event is not there is a broken read model. */
export async function recordedEventOf(store: EventStore, ref: MerchantEventRef): Promise<RecordedEvent> {
  const [recorded] = await store.readStream(ref.streamId, { fromRevision: ref.revision, maxCount: 1 });
  if (!recorded || recorded.revision !== ref.revision || recorded.position !== ref.position)
    throw new Error(`The events feed names ${ref.streamId}@${ref.revision} at position ${ref.position}, which the log does not hold`);
  return recorded;
}

/** The endpoint as the API answers it, right after its event (its secret never). */
async function endpointData(store: EventStore, recorded: RecordedEvent, type: FeedOnlyType): Promise<Record<string, unknown>> {
  const event = toWebhookEndpointEvent(recorded);
  if (!event) throw new Error(`Malformed ${recorded.type} at ${recorded.streamId}@${recorded.revision}`);
  const records = await store.readStream(recorded.streamId, { maxCount: Number(recorded.revision) + 1 });
  let state: WebhookEndpointsState = emptyWebhookEndpoints();
  for (const record of records) {
    const folded = toWebhookEndpointEvent(record);
    if (folded) state = evolveWebhookEndpoints(state, folded, record.position);
  }
  const endpoint = state.endpoints.find((e) => e.endpointId === event.data.endpointId);
  if (!endpoint) throw new Error(`No endpoint ${event.data.endpointId} at ${recorded.streamId}@${recorded.revision}`);
  return {
    id: endpoint.endpointId,
    object: 'webhook_endpoint',
    url: endpoint.url,
    events: endpoint.events as WebhookEventType[],
    created_at: endpoint.createdAt,
    ...(type === 'webhook_endpoint.deleted' ? { deleted: true } : {}),
  };
}

/** The invoice as its webhooks carry it, right after the refund's event. */
async function invoiceData(deps: FeedDataDeps, recorded: RecordedEvent): Promise<Record<string, unknown>> {
  const event = toInvoiceEvent(recorded);
  if (!event) throw new Error(`Malformed ${recorded.type} at ${recorded.streamId}@${recorded.revision}`);
  const invoice = await readInvoice({ store: deps.store }, event.data.invoiceId, { upToRevision: recorded.revision });
  if (!invoice) throw new Error(`No invoice at ${recorded.streamId}@${recorded.revision}`);
  return toInvoiceOutput(invoice, deps.publicUrl);
}

async function dataOf(deps: FeedDataDeps, recorded: RecordedEvent, type: FeedEventType, merchantUserId: string) {
  if (isFeedOnlyType(type))
    return type.startsWith('webhook_endpoint.') ? endpointData(deps.store, recorded, type) : invoiceData(deps, recorded);
  const source = await deps.webhookSourceOf({ store: deps.store, publicUrl: deps.publicUrl }, recorded);
  if (!source || source.webhook.type !== type || source.merchantUserId !== merchantUserId)
    throw new Error(`The events feed names ${type} at ${recorded.streamId}@${recorded.revision}, which reports otherwise`);
  const data: Record<string, unknown> = { ...source.webhook.data };
  // The body keeps a placeholder where the recipient goes; the delivery puts it back as sent.
  if (source.payout) data.to = source.payout.to;
  return data;
}

/** One feed event, as the list and the stream answer it. */
export async function feedEventOf(deps: FeedDataDeps, merchantUserId: string, ref: MerchantEventRef): Promise<FeedEventOutput> {
  const recorded = await recordedEventOf(deps.store, ref);
  const data = await dataOf(deps, recorded, ref.type, merchantUserId);
  return {
    id: feedEventIdOf(ref),
    object: 'event',
    type: ref.type,
    cursor: ref.position.toString(),
    created_at: recorded.recordedAt,
    data: { ...data, livemode: isLivemode(deps.mode) },
  };
}

/** The events of a page, in order, at most `concurrency` built at a time. */
export async function feedEventsOf(
  deps: FeedDataDeps,
  merchantUserId: string,
  refs: readonly MerchantEventRef[],
  concurrency = 16,
): Promise<FeedEventOutput[]> {
  const events: FeedEventOutput[] = new Array(refs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < refs.length; i = next++) events[i] = await feedEventOf(deps, merchantUserId, refs[i] as MerchantEventRef);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, refs.length) }, worker));
  return events;
}

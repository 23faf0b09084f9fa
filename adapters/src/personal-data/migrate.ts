/**
 * Seals a log recorded before personal data was sealed (ADR 042), by copy and replace: every
 * event of the old log is appended, in log order and with its id, type, data and metadata, to
 * a new log through the personal-data layer, which seals its personal fields and names its
 * identity-key stream by digest. The old log is left untouched for the operator to delete once
 * the new one is in service (it still holds the data in the clear).
 */
import type { EventStore, RecordedEvent, StreamAppend } from '@quern/core';
import type { SealingEventStore } from './sealing-store.js';

const PAGE = 1_000;

export interface MigrationReport {
  events: number;
  streams: number;
}

/**
 * A page as appends that keep the log order: an event joins the previous append when it is of
 * the same stream, and a stream met again after another stream starts a new batch.
 */
function batchesInOrder(events: RecordedEvent[]): StreamAppend[][] {
  const batches: StreamAppend[][] = [];
  let batch: StreamAppend[] = [];
  for (const event of events) {
    const last = batch[batch.length - 1];
    const next = { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
    if (last?.streamId === event.streamId) {
      last.events.push(next);
      continue;
    }
    if (batch.some((a) => a.streamId === event.streamId)) {
      batches.push(batch);
      batch = [];
    }
    batch.push({ streamId: event.streamId, events: [next], expectedRevision: 'any' });
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export async function sealLogInto(
  source: EventStore,
  target: SealingEventStore,
  onProgress?: (copied: number) => void,
): Promise<MigrationReport> {
  if ((await target.readAll({ maxCount: 1 })).length > 0) throw new Error('The target log is not empty; the migration writes a new log.');
  const streams = new Set<string>();
  let copied = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await source.readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    for (const batch of batchesInOrder(page)) await target.appendToStreams(batch);
    for (const event of page) streams.add(event.streamId);
    copied += page.length;
    after = (page[page.length - 1] as RecordedEvent).position;
    onProgress?.(copied);
  }
  target.personalData.markLogVerified();
  return { events: copied, streams: streams.size };
}

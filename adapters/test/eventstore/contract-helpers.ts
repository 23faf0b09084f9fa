/** Helpers shared by the parts of the event-store contract suite (contract*.ts). */
import { randomUUID } from 'node:crypto';
import type { EventStore, NewEvent, RecordedEvent } from '@quern/core';
import { expect } from 'vitest';

export type Open = () => Promise<EventStore>;

/** Longest a live subscription may take to deliver an event in these tests. */
const DELIVERY_TIMEOUT_MS = 10_000;
/** Upper bound on log pages walked while looking for a test's own events. */
const MAX_PAGES = 1_000;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const streamName = (label: string) => `contract_${label}-${randomUUID()}`;
export const event = (type: string, data: Record<string, unknown> = {}, extra: Partial<NewEvent> = {}): NewEvent => ({
  type,
  data,
  ...extra,
});

/** Resolves with the rejection reason of `promise`, failing the test if it fulfils. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

/** Pulls from `iterator` until `count` events matching `keep` arrived, or fails after the timeout. */
export async function take(
  iterator: AsyncIterator<RecordedEvent>,
  count: number,
  keep: (e: RecordedEvent) => boolean,
): Promise<RecordedEvent[]> {
  const taken: RecordedEvent[] = [];
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  while (taken.length < count) {
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) expect.fail(`only ${taken.length} of ${count} events arrived within ${DELIVERY_TIMEOUT_MS} ms`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), remainingMs);
    });
    const next = await Promise.race([iterator.next(), timeout]);
    clearTimeout(timer);
    if (next === 'timeout') continue;
    if (next.done) expect.fail(`the subscription ended after ${taken.length} of ${count} events`);
    if (keep(next.value)) taken.push(next.value);
  }
  return taken;
}

/** Walks readAll pages after `after` until every id in `ids` was seen; returns the pages' own events. */
export async function readOwnEvents(store: EventStore, after: bigint, ids: Set<string>, maxCount: number) {
  const pages: RecordedEvent[][] = [];
  const own: RecordedEvent[] = [];
  let checkpoint = after;
  for (let i = 0; i < MAX_PAGES && own.length < ids.size; i += 1) {
    const page = await store.readAll({ after: checkpoint, maxCount });
    if (page.length === 0) break;
    pages.push(page);
    own.push(...page.filter((e) => ids.has(e.id)));
    checkpoint = page.at(-1)?.position ?? checkpoint;
  }
  return { pages, own };
}

/**
 * Where a month starts in a wallet's stream and what the wallet held then, read from the log with
 * a bounded number of reads (ADR 090): a galloping then binary search over revisions, one event
 * per read, finds the month's first event without folding the stream, and the event just before
 * it carries the opening balance (`balanceAfter`, core/src/wallet/balance-after.ts).
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { walletEventTime } from '@quern/core/as-of';
import { toWalletEvent, type WalletEvent } from '@quern/core/wallet';

/** A recorded event's time in milliseconds: its ledger time, or the store's for anything else in the stream. */
export function recordedTimeMs(recorded: RecordedEvent): number {
  const event = toWalletEvent(recorded);
  return Date.parse(event ? walletEventTime(event) : recorded.recordedAt);
}

const eventAt = async (store: EventStore, streamId: string, revision: bigint): Promise<RecordedEvent | undefined> =>
  (await store.readStream(streamId, { fromRevision: revision, maxCount: 1 }))[0];

/**
 * The first revision whose event happened at or after `ms` (the stream's length when none did),
 * in O(log n) single-event reads. Relies on the ledger's times rising with revisions in a stream,
 * which one clock writing in append order gives.
 */
export async function firstRevisionAtOrAfter(store: EventStore, streamId: string, ms: number): Promise<bigint> {
  const before = async (revision: bigint): Promise<boolean> => {
    const event = await eventAt(store, streamId, revision);
    return event !== undefined && recordedTimeMs(event) < ms;
  };
  // lo: a revision known to be before `ms` (-1: none known); hi: one known at or after it, or past the end.
  let lo = -1n;
  let step = 1n;
  let hi: bigint;
  for (;;) {
    const probe = lo + step;
    if (!(await before(probe))) {
      hi = probe;
      break;
    }
    lo = probe;
    step *= 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (await before(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** How a movement the log recorded before `balanceAfter` existed changed the posted balance. */
function postedDelta(event: WalletEvent): bigint {
  switch (event.type) {
    case 'SupplyMinted':
    case 'TransferCredited':
    case 'DepositConfirmed':
      return BigInt(event.data.amountMlx);
    case 'TransferPosted':
      return -(BigInt(event.data.amountMlx) + BigInt(event.data.feeMlx));
    default:
      return 0n;
  }
}

const PAGE = 500;

/**
 * The posted balance right after `revision` (0 before the stream's first event): that event's
 * `balanceAfter`; for an event without one (an opening, a closing, or a movement recorded before
 * the field existed) the nearest earlier one that has it, plus the movements in between.
 */
export async function postedBalanceAfter(store: EventStore, streamId: string, revision: bigint): Promise<bigint> {
  let end = revision + 1n;
  const unstamped: WalletEvent[] = [];
  while (end > 0n) {
    const from = end > BigInt(PAGE) ? end - BigInt(PAGE) : 0n;
    const page = await store.readStream(streamId, { fromRevision: from, maxCount: Number(end - from) });
    for (const recorded of page.reverse()) {
      const event = toWalletEvent(recorded);
      if (!event) continue;
      const stamped = 'balanceAfter' in event.data ? event.data.balanceAfter : undefined;
      if (stamped) return unstamped.reduce((sum, later) => sum + postedDelta(later), BigInt(stamped.postedMlx));
      unstamped.push(event);
    }
    end = from;
  }
  return unstamped.reduce((sum, event) => sum + postedDelta(event), 0n);
}

/**
 * The outcome of a payout whose transfer the merchant's wallet state no longer holds (a wallet
 * keeps only its newest SETTLED_TRANSFERS_MAX settled transfers, ADR 020). The log still has it:
 * the reservation was appended in the same atomic append as PayoutRequested, so on the wallet
 * stream it sits next to the first event at or after PayoutRequested's global position. A binary
 * search over revisions (one single-event read each, O(log n)) finds that spot, and the post or
 * void follows it; the scan from there reads in bounded pages.
 */
import type { EventStore } from '../shared/ports/event-store.js';
import type { PayoutStatus } from './contracts.js';

/** Events read per page while looking for the settlement after the reservation. */
const SCAN_PAGE = 256;
/** A payer's share of one append is at most a reservation and its post: start that far back. */
const APPEND_SPAN = 2n;

type Store = Pick<EventStore, 'readStream'>;

async function positionAt(store: Store, streamId: string, revision: bigint): Promise<bigint | undefined> {
  const [record] = await store.readStream(streamId, { fromRevision: revision, maxCount: 1 });
  return record?.position;
}

/** The first revision whose event is at or after `position`; `eventCount` when none is. */
async function firstRevisionFrom(store: Store, streamId: string, position: bigint, eventCount: bigint): Promise<bigint> {
  let low = 0n;
  let high = eventCount;
  while (low < high) {
    const middle = (low + high) / 2n;
    const at = await positionAt(store, streamId, middle);
    if (at !== undefined && at < position) low = middle + 1n;
    else high = middle;
  }
  return low;
}

/**
 * 'completed' or 'failed' from the wallet stream's TransferPosted or TransferVoided of the
 * payout's transfer; 'pending' when neither follows the reservation (yet).
 */
export async function settledPayoutStatus(
  store: Store,
  walletStreamId: string,
  transferId: string,
  requestedPosition: bigint,
  eventCount: number,
): Promise<PayoutStatus> {
  const count = BigInt(eventCount);
  const found = await firstRevisionFrom(store, walletStreamId, requestedPosition, count);
  let from = found > APPEND_SPAN ? found - APPEND_SPAN : 0n;
  while (from < count) {
    const page = await store.readStream(walletStreamId, { fromRevision: from, maxCount: SCAN_PAGE });
    for (const record of page) {
      const data = record.data as { transferId?: unknown };
      if (data?.transferId !== transferId) continue;
      if (record.type === 'TransferPosted') return 'completed';
      if (record.type === 'TransferVoided') return 'failed';
    }
    if (page.length < SCAN_PAGE) break;
    from += BigInt(page.length);
  }
  return 'pending';
}

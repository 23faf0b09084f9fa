// Proves that a payout the wallet state has forgotten still reads its real outcome from the log:
// the binary search finds the reservation beside PayoutRequested's position whether the wallet's
// share of the append came before or after it, the post or void that follows (hundreds of events
// later) gives 'completed' or 'failed', none gives 'pending', and the reads stay logarithmic plus
// the scan's pages instead of reading the whole wallet.
import { describe, expect, it } from 'vitest';
import type { ReadStreamOptions, RecordedEvent } from '../shared/ports/event-store.js';
import { settledPayoutStatus } from './settled-outcome.js';

const STREAM = 'wallet-merchant';
const TRANSFER = `payout-po_${'a'.repeat(32)}`;

/** A wallet stream of `count` events; every other global position belongs to some other stream. */
function walletStreamOf(count: number, events: Record<number, { type: string; transferId: string; position?: bigint }>) {
  const records: RecordedEvent[] = [];
  for (let revision = 0; revision < count; revision++) {
    const special = events[revision];
    records.push({
      id: `e${revision}`,
      streamId: STREAM,
      revision: BigInt(revision),
      position: special?.position ?? BigInt(10 + revision * 2),
      type: special?.type ?? 'TransferCredited',
      data: { transferId: special?.transferId ?? `other-${revision}` },
      metadata: {},
      recordedAt: '2026-11-24T00:00:00.000Z',
    });
  }
  let reads = 0;
  const store = {
    async readStream(streamId: string, options: ReadStreamOptions = {}) {
      reads++;
      if (streamId !== STREAM) return [];
      const from = Number(options.fromRevision ?? 0n);
      return records.slice(from, from + (options.maxCount ?? records.length));
    },
  };
  return { store, reads: () => reads };
}

describe('settledPayoutStatus', () => {
  const reservedAt = 1200;
  // PayoutRequested was appended right after the wallet's reservation, at the next global position.
  const requested = BigInt(10 + reservedAt * 2 + 1);

  it('finds a void 500 events after the reservation: failed, in a few dozen reads of a 3000-event wallet', async () => {
    const { store, reads } = walletStreamOf(3000, {
      [reservedAt]: { type: 'TransferReserved', transferId: TRANSFER },
      1700: { type: 'TransferVoided', transferId: TRANSFER },
    });
    expect(await settledPayoutStatus(store, STREAM, TRANSFER, requested, 3000)).toBe('failed');
    expect(reads()).toBeLessThan(20);
  });

  it('finds a post: completed', async () => {
    const { store } = walletStreamOf(3000, {
      [reservedAt]: { type: 'TransferReserved', transferId: TRANSFER },
      1201: { type: 'TransferPosted', transferId: TRANSFER },
    });
    expect(await settledPayoutStatus(store, STREAM, TRANSFER, requested, 3000)).toBe('completed');
  });

  it("finds it when the wallet's share of the append came after PayoutRequested", async () => {
    const before = BigInt(10 + reservedAt * 2 - 1);
    const { store } = walletStreamOf(3000, {
      [reservedAt]: { type: 'TransferReserved', transferId: TRANSFER },
      2999: { type: 'TransferVoided', transferId: TRANSFER },
    });
    expect(await settledPayoutStatus(store, STREAM, TRANSFER, before, 3000)).toBe('failed');
  });

  it('answers pending when nothing settled the reservation yet, and ignores other transfers', async () => {
    const { store } = walletStreamOf(600, {
      [reservedAt - 1000]: { type: 'TransferReserved', transferId: TRANSFER },
      300: { type: 'TransferVoided', transferId: `payout-po_${'b'.repeat(32)}` },
    });
    expect(await settledPayoutStatus(store, STREAM, TRANSFER, BigInt(10 + 200 * 2 + 1), 600)).toBe('pending');
  });
});

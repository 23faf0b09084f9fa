/**
 * The wallet day snapshots (ADR 089): per wallet and UTC day, the wallet as its last event of that
 * day left it (stream revision, log position, balance), so a balance as of any moment is folded
 * from the end of the day before instead of from the wallet's first event.
 *
 * The day is that of the event's own time (the time `as_of` instants are compared with). Each
 * balance-moving event overwrites its day's entry (HSET) and scores (ZADD), so in log order the
 * entry ends as the day's last event left it and a rebuild writes the same values. Opening and
 * closing move no money and carry no balance: they leave the snapshots as they are.
 */
import type { RecordedEvent } from '@quern/core';
import { dayOf, epochDayOf, walletEventTime } from '@quern/core/as-of';
import { toWalletEvent, walletStream } from '@quern/core/wallet';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { type StoredDayEnd, walletDayEndsKey, walletDaysByDayKey, walletDaysByPositionKey } from './keys.js';

/** A position as a sorted-set score: exact only up to 2^53, so a larger one is refused, never rounded. */
function scoreOf(position: bigint): number {
  if (position < 0n || position > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`position ${position} is out of a score's exact range`);
  return Number(position);
}

export const walletDaysProjection: Projection = {
  name: 'wallet-days',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    const wallet = toWalletEvent(event);
    if (!wallet || !('balanceAfter' in wallet.data) || !wallet.data.balanceAfter) return;
    const { walletId, balanceAfter } = wallet.data;
    // A revision means something only in the wallet's own stream.
    if (event.streamId !== walletStream(walletId)) return;
    const ms = Date.parse(walletEventTime(wallet));
    if (Number.isNaN(ms) || ms < 0) return;
    const day = dayOf(ms);
    const stored: StoredDayEnd = {
      revision: event.revision.toString(),
      position: event.position.toString(),
      posted: balanceAfter.postedMlx,
      held: balanceAfter.heldMlx,
      pending_credit: balanceAfter.pendingCreditMlx,
    };
    tx.hset(walletDayEndsKey(walletId), day, JSON.stringify(stored));
    tx.zadd(walletDaysByDayKey(walletId), epochDayOf(ms), day);
    tx.zadd(walletDaysByPositionKey(walletId), scoreOf(event.position), day);
  },
};

/**
 * A wallet's balance as of a moment (ADR 089): the last day snapshot that ends before the moment
 * (the day before an instant's day; a day ended at or before a cursor), then the wallet's stream
 * folded from there up to the moment. The snapshot is a cache: when there is none, or it does not
 * match the log (its revision is not at its position), the fold starts from the stream's first
 * event, so the answer is the same either way; only the work differs.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { type AsOf, ZERO_BALANCE, balanceAfterEvent, epochDayOf, isAfter, walletEventTime } from '@quern/core/as-of';
import { toWalletEvent, type WalletBalance, walletStream } from '@quern/core/wallet';
import type { Redis } from 'ioredis';
import { type StoredDayEnd, walletDayEndsKey, walletDaysByDayKey, walletDaysByPositionKey } from './keys.js';

/** Events per read of the stream: a day of a busy wallet in a few reads, in bounded memory. */
export const AS_OF_READ_PAGE = 1_000;

interface DayEnd {
  revision: bigint;
  position: bigint;
  balance: WalletBalance;
}

function dayEndOf(json: string | null): DayEnd | undefined {
  if (json === null) return undefined;
  try {
    const stored = JSON.parse(json) as StoredDayEnd;
    return {
      revision: BigInt(stored.revision),
      position: BigInt(stored.position),
      balance: { postedMlx: BigInt(stored.posted), heldMlx: BigInt(stored.held), pendingCreditMlx: BigInt(stored.pending_credit) },
    };
  } catch {
    // An unreadable entry is a cache miss, not an error: the fold starts earlier.
    return undefined;
  }
}

/** The last day snapshot wholly before the moment, if the cache holds one. */
export async function dayEndBefore(redis: Redis, walletId: string, asOf: AsOf): Promise<DayEnd | undefined> {
  const [day] =
    asOf.kind === 'time'
      ? await redis.zrevrangebyscore(walletDaysByDayKey(walletId), `(${epochDayOf(asOf.ms)}`, '-inf', 'LIMIT', 0, 1)
      : await redis.zrevrangebyscore(walletDaysByPositionKey(walletId), asOf.position.toString(), '-inf', 'LIMIT', 0, 1);
  return day === undefined ? undefined : dayEndOf(await redis.hget(walletDayEndsKey(walletId), day));
}

/**
 * Folds `events` onto `balance` until the first one after the moment. Returns the balance and
 * whether the moment was reached (an event after it was seen).
 */
function foldUntil(balance: WalletBalance, events: readonly RecordedEvent[], asOf: AsOf): { balance: WalletBalance; reached: boolean } {
  let folded = balance;
  for (const recorded of events) {
    const event = toWalletEvent(recorded);
    if (!event) throw new Error(`${recorded.type} at position ${recorded.position} is not a well-formed wallet event`);
    if (isAfter(asOf, recorded.position, walletEventTime(event))) return { balance: folded, reached: true };
    folded = balanceAfterEvent(folded, event);
  }
  return { balance: folded, reached: false };
}

export async function walletBalanceAsOf(deps: { store: EventStore; redis: Redis }, walletId: string, asOf: AsOf): Promise<WalletBalance> {
  const stream = walletStream(walletId);
  let balance = ZERO_BALANCE;
  let fromRevision = 0n;
  const start = await dayEndBefore(deps.redis, walletId, asOf);
  if (start) {
    // Read from the snapshot's own event, to check the cache against the log before trusting it.
    const [own] = await deps.store.readStream(stream, { fromRevision: start.revision, maxCount: 1 });
    if (own?.position === start.position) {
      balance = start.balance;
      fromRevision = start.revision + 1n;
    }
  }
  for (;;) {
    const page = await deps.store.readStream(stream, { fromRevision, maxCount: AS_OF_READ_PAGE });
    const folded = foldUntil(balance, page, asOf);
    balance = folded.balance;
    if (folded.reached || page.length < AS_OF_READ_PAGE) return balance;
    fromRevision += BigInt(page.length);
  }
}

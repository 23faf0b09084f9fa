/**
 * The exchange rate in force at a log position (ADR 091): the last ExchangeRateSet on the
 * `exchange-rate` stream recorded before that position. A walk answers ascending positions while
 * reading the stream a page at a time, so an export over any range holds one page of rates.
 */
import type { EventStore, RecordedEvent } from '../shared/ports/event-store.js';
import { parseExchangeRate } from '../wallet/money.js';
import { EXCHANGE_RATE_STREAM } from '../wallet/rate.js';

/** Rate events read per round trip. */
export const RATE_PAGE_SIZE = 500;

export interface RateWalk {
  /** USD per MLX in force just before `position`, or undefined when none was set then. Positions must not go down. */
  at(position: bigint): Promise<string | undefined>;
}

const rateOf = (event: RecordedEvent): string | undefined => {
  const parsed = typeof event.data.usdPerMlx === 'string' ? parseExchangeRate(event.data.usdPerMlx) : undefined;
  return parsed?.ok ? parsed.rate.usdPerMlx : undefined;
};

export function createRateWalk(store: Pick<EventStore, 'readStream'>, pageSize = RATE_PAGE_SIZE): RateWalk {
  let current: string | undefined;
  let buffered: RecordedEvent[] = [];
  let nextRevision = 0n;
  let ended = false;
  let lastPosition = -1n;
  return {
    async at(position) {
      if (position < lastPosition) throw new Error(`Rate walk asked for position ${position} after ${lastPosition}`);
      lastPosition = position;
      for (;;) {
        while (buffered.length > 0 && (buffered[0] as RecordedEvent).position < position)
          current = rateOf(buffered.shift() as RecordedEvent) ?? current;
        if (buffered.length > 0 || ended) return current;
        buffered = await store.readStream(EXCHANGE_RATE_STREAM, { fromRevision: nextRevision, maxCount: pageSize });
        nextRevision += BigInt(buffered.length);
        if (buffered.length < pageSize) ended = true;
      }
    },
  };
}

/** The rate in force at one position (a receipt): one walk from the stream's start. */
export const rateInForceAt = (store: Pick<EventStore, 'readStream'>, position: bigint): Promise<string | undefined> =>
  createRateWalk(store).at(position);

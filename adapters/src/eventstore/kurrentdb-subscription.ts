/**
 * A $all catch-up subscription on KurrentDB adapted to the port's LogSubscription: system events
 * filtered out on the server, the checkpoint made exclusive on our side, and close() ending the
 * iteration even while it waits for the next live event (cancelling the gRPC call alone does not
 * reliably end the client's stream).
 */
import { excludeSystemEvents, type KurrentDBClient } from '@kurrent/kurrentdb-client';
import type { LogSubscription, RecordedEvent } from '@quern/core';
import { mapEvent, toReadPosition } from './kurrentdb-mapping.js';

const CLOSED = Symbol('closed');

export function openKurrentSubscription(
  client: KurrentDBClient,
  after: bigint | undefined,
  onEnd: (subscription: LogSubscription) => void,
): LogSubscription {
  const source = client.subscribeToAll({ fromPosition: toReadPosition(after), filter: excludeSystemEvents() });
  let closed = false;
  let iterated = false;
  let signalClosed: () => void = () => {};
  const whenClosed = new Promise<typeof CLOSED>((resolve) => {
    signalClosed = () => resolve(CLOSED);
  });

  const subscription: LogSubscription = {
    async close() {
      if (closed) return;
      closed = true;
      signalClosed();
      onEnd(subscription);
      // Errors from cancelling a call that is already over do not matter to the caller.
      await source.unsubscribe().catch(() => undefined);
    },

    [Symbol.asyncIterator]() {
      if (iterated) throw new Error('A log subscription can be iterated only once');
      iterated = true;
      return run();
    },
  };

  async function* run(): AsyncGenerator<RecordedEvent> {
    const iterator = source[Symbol.asyncIterator]();
    try {
      while (!closed) {
        const pending = iterator.next();
        // When close() wins the race this read is abandoned; its rejection must not go unhandled.
        pending.catch(() => undefined);
        const next = await Promise.race([pending, whenClosed]);
        if (next === CLOSED || next.done) return;
        const resolved: { event?: Parameters<typeof mapEvent>[0] } = next.value;
        if (!resolved.event) continue;
        const event = mapEvent(resolved.event);
        // The server starts after the given position, but the port's exclusivity must not
        // depend on that detail.
        if (after !== undefined && event.position <= after) continue;
        yield event;
      }
    } finally {
      await subscription.close();
      await iterator.return?.().catch(() => undefined);
    }
  }

  return subscription;
}

/**
 * How the capture call waits for the capture worker's answer (ADR 066): a subscription to the
 * log from the last event it read of the purchase, folding that purchase's events as they are
 * appended, until `answer` has one or the time is up. No polling of the stream; the subscription
 * is closed whatever happens.
 */
import { type EventStore, foldRecorded } from '@quern/core';
import { type PurchaseState, purchaseModel, purchaseStream } from '@quern/core/purchases';

export interface PurchaseWait<Answer> {
  orderId: string;
  /** The purchase as read at `after`. */
  state: PurchaseState;
  /** The log position of the last event `state` folds. */
  after: bigint;
  timeoutMs: number;
  answer(state: PurchaseState): Answer | undefined;
}

/** The first answer the purchase's events give within the time, or undefined. */
export async function waitForPurchase<Answer>(store: EventStore, wait: PurchaseWait<Answer>): Promise<Answer | undefined> {
  const streamId = purchaseStream(wait.orderId);
  const subscription = store.subscribeToAll({ after: wait.after });
  const watching = (async () => {
    let state = wait.state;
    for await (const recorded of subscription) {
      if (recorded.streamId !== streamId) continue;
      // Parsed and folded as every read of a purchase is (an unreadable event is refused).
      state = foldRecorded(purchaseModel, state, [recorded]);
      const answer = wait.answer(state);
      if (answer !== undefined) return answer;
    }
    return undefined;
  })();
  // The loser of the race settles after the subscription closes; nobody waits on it any more.
  watching.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), wait.timeoutMs);
  });
  try {
    return await Promise.race([watching, timeUp]);
  } finally {
    clearTimeout(timer);
    await subscription.close();
  }
}

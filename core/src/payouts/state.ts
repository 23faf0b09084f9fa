/**
 * A payout folded from its stream `payout-<id>`: the request that opened it. Its status is not
 * here but on the merchant's wallet transfer (handlers.ts reads it there).
 */
import type { PayoutEvent, PayoutRequested } from './events.js';

export type PayoutState = PayoutRequested['data'] | undefined;

export const initialPayoutState = (): PayoutState => undefined;

export function evolvePayout(state: PayoutState, event: PayoutEvent): PayoutState {
  switch (event.type) {
    case 'PayoutRequested':
      // The stream is opened once ('no_stream'): a second request is never appended.
      return state ?? event.data;
  }
}

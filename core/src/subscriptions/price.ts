/**
 * Price consent (ADR 044): a subscriber pays at most the price they agreed to. A renewal charges
 * the plan's price when it is lower (and that becomes the agreed price) and the agreed price
 * otherwise; a higher plan price reaches an existing subscription only once its subscriber
 * accepts exactly that price. Until then the provider may end the subscription at the end of its
 * paid period instead. Pure: the handlers load the subscription and the plan and append what
 * these decide.
 */
import type { SubscriptionEvent } from './events.js';
import { cancellationEvents, type SubscriptionState } from './state.js';

/** What a renewal charges: the plan's price, never more than the price the subscriber agreed to. */
export const renewalPriceMlx = (agreedPriceMlx: bigint, planPriceMlx: bigint): bigint =>
  planPriceMlx < agreedPriceMlx ? planPriceMlx : agreedPriceMlx;

/** The plan as price consent needs it: its current price, or undefined once it was deleted. */
export interface PlanPrice {
  priceMlx: bigint | undefined;
}

const live = (state: SubscriptionState): boolean => !state.ended && !state.cancellation;

/** The higher price waiting for the subscriber's consent, or undefined when there is none. */
export function pendingPriceMlx(state: SubscriptionState, plan: PlanPrice): bigint | undefined {
  if (!live(state) || plan.priceMlx === undefined) return undefined;
  return plan.priceMlx > BigInt(state.agreedPriceMlx) ? plan.priceMlx : undefined;
}

/** Why a price consent command was refused; the handlers turn each into an AppError. */
export type PriceConsentRefusal =
  | { kind: 'notSubscriber' }
  | { kind: 'notProvider' }
  | { kind: 'notLive' }
  | { kind: 'noIncreasePending' }
  | { kind: 'staleOffer'; pendingPriceMlx: bigint };

export type PriceConsentDecision = { events: SubscriptionEvent[] } | { refusal: PriceConsentRefusal };

/**
 * The subscriber accepts the pending higher price. The price they saw must be the one pending
 * now: an offer that changed meanwhile (raised again, or lowered back) is refused, never taken.
 */
export function decideAcceptPrice(
  state: SubscriptionState,
  command: { userId: string; seenPriceMlx: bigint; plan: PlanPrice; now: Date },
): PriceConsentDecision {
  if (command.userId !== state.subscriberUserId) return { refusal: { kind: 'notSubscriber' } };
  if (!live(state)) return { refusal: { kind: 'notLive' } };
  const pending = pendingPriceMlx(state, command.plan);
  if (pending === undefined) return { refusal: { kind: 'noIncreasePending' } };
  if (pending !== command.seenPriceMlx) return { refusal: { kind: 'staleOffer', pendingPriceMlx: pending } };
  return {
    events: [
      {
        type: 'SubscriptionPriceAccepted',
        data: {
          subscriptionId: state.subscriptionId,
          byUserId: command.userId,
          previousPriceMlx: state.agreedPriceMlx,
          priceMlx: pending.toString(),
          acceptedAt: command.now.toISOString(),
        },
      },
    ],
  };
}

/**
 * The provider ends a subscription whose subscriber has not accepted the higher price. The
 * subscriber keeps the period they paid for: the subscription ends when it does, without a
 * charge (at once when past due, as a cancellation would).
 */
export function decideEndForUnacceptedPrice(
  state: SubscriptionState,
  command: { userId: string; plan: PlanPrice; now: Date },
): PriceConsentDecision {
  if (command.userId !== state.providerUserId) return { refusal: { kind: 'notProvider' } };
  if (!live(state)) return { refusal: { kind: 'notLive' } };
  if (pendingPriceMlx(state, command.plan) === undefined) return { refusal: { kind: 'noIncreasePending' } };
  return { events: cancellationEvents(state, 'priceNotAccepted', command.now, command.userId) };
}

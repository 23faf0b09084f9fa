/**
 * Subscription commands: what a handler asks the decider (decider.ts) to do to one subscription
 * stream. Amounts are bigint here; the handlers read the plan and the job before deciding, so each
 * command carries everything the decision needs and the decider does no I/O.
 */
import type { PlanPrice } from './price.js';

/** The plan as subscribing decides on it, read by the handler. */
export interface SubscribedPlan {
  planId: string;
  providerUserId: string;
  name: string;
  priceMlx: bigint;
  deleted: boolean;
}

/** Opens generation `generation` of the subscriber's subscription to the plan, charging its first period. */
export interface StartSubscription {
  type: 'StartSubscription';
  data: {
    subscriptionId: string;
    generation: number;
    subscriberUserId: string;
    plan: SubscribedPlan;
    /** The price the subscriber confirmed; a different plan price is refused, never charged. */
    expectedPriceMlx?: bigint;
  };
}

/** The subscriber or the plan's provider cancels at the end of the paid period. */
export interface CancelSubscription {
  type: 'CancelSubscription';
  data: { userId: string };
}

/**
 * Why the wallet refused a renewal's charge, as the renewal branches on it: too little MLX is a
 * failed attempt; a closed wallet (a deleted account, ADR 042) ends the subscription.
 */
export type ChargeRefusal = { kind: 'insufficientFunds' } | { kind: 'subscriberClosed' } | { kind: 'providerClosed' };

/**
 * The renewal job's work for one (period, attempt). `chargeRefused` is set when the charge this
 * renewal decided was refused by the wallet: the renewal then records the failure instead.
 */
export interface RenewSubscription {
  type: 'RenewSubscription';
  data: { period: number; attempt: number; plan: PlanPrice; chargeRefused?: ChargeRefusal };
}

/** Records that the subscriber was told of a plan's price change (once per plan edit). */
export interface AnnouncePriceChange {
  type: 'AnnouncePriceChange';
  data: { planRevision: string; previousPriceMlx: string; priceMlx: string };
}

/** Records an e-mail as sent, once per e-mail id. */
export interface RecordSubscriptionEmail {
  type: 'RecordSubscriptionEmail';
  data: { emailId: string; messageId: string };
}

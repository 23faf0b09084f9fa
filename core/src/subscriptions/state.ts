/**
 * A subscription folded from its stream (ADR 037): who pays whom, every charge, the open renewal
 * and the status the screens show:
 *
 * - `active`: paid through `paidThrough`, renews then;
 * - `past_due`: the renewal failed for want of MLX; retried 1, 3 and 5 days after it was due;
 * - `cancelled`: cancelled, still paid until `endsAt`, will not renew;
 * - `ended`: over (cancelled and past its paid period, never paid, or its plan deleted).
 */
import { eventParser, type StreamModel } from '../shared/command-handler.js';
import { type CancelledBy, type ChargeData, type SubscriptionEvent, subscriptionEventSchemas } from './events.js';
import { attemptDueAt } from './schedule.js';

export type SubscriptionStatus = 'active' | 'past_due' | 'cancelled' | 'ended';

/** A charge as the subscription keeps it: the event's charge without what names the subscription. */
export type SubscriptionCharge = Omit<ChargeData, 'subscriptionId' | 'billingDay'>;

export interface SubscriptionFailure {
  period: number;
  attempt: number;
  priceMlx: string;
  failedAt: string;
  nextAttemptAt: string;
}

export interface SubscriptionState {
  subscriptionId: string;
  planId: string;
  planName: string;
  providerUserId: string;
  subscriberUserId: string;
  generation: number;
  startedAt: string;
  charges: SubscriptionCharge[];
  /**
   * The most a renewal may charge (ADR 044): the price paid on subscribing, then each renewal's
   * (a lower plan price, once charged, is the new agreement), or the higher price the subscriber
   * accepted.
   */
  agreedPriceMlx: string;
  failures: SubscriptionFailure[];
  paidThrough: string;
  billingDay: number;
  /** Failed attempts of the open period (0 when it has not failed). */
  failedAttempts: number;
  cancellation?: { by: CancelledBy; byUserId?: string; cancelledAt: string; endsAt: string };
  ended?: { reason: CancelledBy; endedAt: string };
  /** Plan revisions already announced to this subscriber (price changes). */
  announcedPlanRevisions: string[];
  /** Ids of the e-mails recorded as sent. */
  emailsSent: string[];
  /** Revision of the last event folded. */
  revision: bigint;
}

const chargeOf = (d: ChargeData): SubscriptionCharge => ({
  period: d.period,
  attempt: d.attempt,
  priceMlx: d.priceMlx,
  transferId: d.transferId,
  chargedAt: d.chargedAt,
  paidThrough: d.paidThrough,
});

export function evolveSubscription(
  state: SubscriptionState | undefined,
  event: SubscriptionEvent,
  revision: bigint,
): SubscriptionState | undefined {
  if (event.type === 'SubscriptionStarted') {
    const d = event.data;
    return {
      subscriptionId: d.subscriptionId,
      planId: d.planId,
      planName: d.planName,
      providerUserId: d.providerUserId,
      subscriberUserId: d.subscriberUserId,
      generation: d.generation,
      startedAt: d.chargedAt,
      charges: [chargeOf(d)],
      agreedPriceMlx: d.priceMlx,
      failures: [],
      paidThrough: d.paidThrough,
      billingDay: d.billingDay,
      failedAttempts: 0,
      announcedPlanRevisions: [],
      emailsSent: [],
      revision,
    };
  }
  if (!state) return undefined;
  const next: SubscriptionState = { ...state, revision };
  switch (event.type) {
    case 'SubscriptionRenewed':
      return {
        ...next,
        charges: [...state.charges, chargeOf(event.data)],
        agreedPriceMlx: event.data.priceMlx,
        paidThrough: event.data.paidThrough,
        billingDay: event.data.billingDay,
        failedAttempts: 0,
      };
    case 'SubscriptionChargeFailed': {
      const { period, attempt, priceMlx, failedAt, nextAttemptAt } = event.data;
      return { ...next, failures: [...state.failures, { period, attempt, priceMlx, failedAt, nextAttemptAt }], failedAttempts: attempt };
    }
    case 'SubscriptionCancelled': {
      const { by, byUserId, cancelledAt, endsAt } = event.data;
      return { ...next, cancellation: { by, ...(byUserId !== undefined ? { byUserId } : {}), cancelledAt, endsAt } };
    }
    case 'SubscriptionEnded':
      return { ...next, ended: { reason: event.data.reason, endedAt: event.data.endedAt } };
    case 'SubscriptionPriceChangeAnnounced':
      return { ...next, announcedPlanRevisions: [...state.announcedPlanRevisions, event.data.planRevision] };
    case 'SubscriptionPriceAccepted':
      return { ...next, agreedPriceMlx: event.data.priceMlx };
    case 'SubscriptionResumed': {
      // The cancellation is taken back: the subscription renews again when its period ends.
      const { cancellation: _, ...resumed } = next;
      return resumed;
    }
    case 'SubscriptionEmailSent':
      return { ...next, emailsSent: [...state.emailsSent, event.data.emailId] };
  }
}

/**
 * A subscription stream as the pipeline reads it: undefined until SubscriptionStarted. Every event
 * on it is a subscription's, so each one folded is the revision after the state's.
 */
export const subscriptionModel: StreamModel<SubscriptionState | undefined, SubscriptionEvent> = {
  initialState: () => undefined,
  evolve: (state, event) => evolveSubscription(state, event, state ? state.revision + 1n : 0n),
  parse: eventParser(subscriptionEventSchemas),
};

export function subscriptionStatus(state: SubscriptionState): SubscriptionStatus {
  if (state.ended) return 'ended';
  if (state.cancellation) return 'cancelled';
  return state.failedAttempts > 0 ? 'past_due' : 'active';
}

/** The renewal still to be decided, or undefined once the subscription has ended. */
export function openRenewal(state: SubscriptionState): { period: number; attempt: number; dueAt: Date } | undefined {
  if (state.ended) return undefined;
  const lastPaid = state.charges[state.charges.length - 1];
  const period = (lastPaid?.period ?? 0) + 1;
  const attempt = state.failedAttempts + 1;
  // A cancelled subscription ends when its paid period does (or at once, when it was past due).
  if (state.cancellation) return { period, attempt, dueAt: new Date(state.cancellation.endsAt) };
  return { period, attempt, dueAt: attemptDueAt(new Date(state.paidThrough), attempt) };
}

/** The cancellation (and, when nothing is paid ahead, the end) of a subscription, decided at `now`. */
export function cancellationEvents(state: SubscriptionState, by: CancelledBy, now: Date, byUserId?: string): SubscriptionEvent[] {
  const open = openRenewal(state);
  if (!open) return [];
  const at = now.toISOString();
  // Past due, or paid through already: nothing is paid ahead, so it ends now.
  const endsNow = state.failedAttempts > 0 || new Date(state.paidThrough) <= now;
  const endsAt = endsNow ? at : state.paidThrough;
  const events: SubscriptionEvent[] = [
    {
      type: 'SubscriptionCancelled',
      data: { subscriptionId: state.subscriptionId, by, ...(byUserId !== undefined ? { byUserId } : {}), cancelledAt: at, endsAt },
    },
  ];
  if (endsNow)
    events.push({
      type: 'SubscriptionEnded',
      data: { subscriptionId: state.subscriptionId, period: open.period, attempt: open.attempt, reason: by, endedAt: at },
    });
  return events;
}

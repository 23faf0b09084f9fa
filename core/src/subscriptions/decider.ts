/**
 * Pure subscription decisions (ADR 037, 044, 065): given a subscription's state, a command and the
 * time as data, which events happen, or why not. No I/O: the handlers read the plan, the provider's
 * address and the wallet's answer to a charge, and pass them in. Refusals are typed so that callers
 * branch on a kind; the handlers turn them into the api's errors. Price consent and resuming are
 * decided in price.ts and resume.ts, in the same way.
 */
import type { ReserveTransfer } from '../wallet/commands.js';
import { mlxFromWire, mlxToWire } from '../wallet/money.js';
import type {
  AnnouncePriceChange,
  CancelSubscription,
  RecordSubscriptionEmail,
  RenewSubscription,
  StartSubscription,
  SubscribedPlan,
} from './commands.js';
import { type CancelledBy, type SubscriptionEvent, type SubscriptionStarted, subscriptionChargeTransferId } from './events.js';
import { renewalPriceMlx } from './price.js';
import { CHARGE_ATTEMPTS_MAX, addMonthsOnBillingDay, attemptDueAt, paidThroughAfter } from './schedule.js';
import { cancellationEvents, openRenewal, type SubscriptionState } from './state.js';

/** Why a plan cannot be subscribed to by this user. */
export type PlanRefusal = { kind: 'planDeleted' } | { kind: 'ownPlan' };

export type SubscribeRefusal = PlanRefusal | { kind: 'priceChanged'; priceMlx: bigint } | { kind: 'alreadySubscribed' };

export type SubscribeDecision = { refusal: SubscribeRefusal } | { started: SubscriptionStarted; chargeMlx: bigint };

/** The plan's refusal of this subscriber, or undefined when they may subscribe (what a quote checks too). */
export function planRefusal(plan: Pick<SubscribedPlan, 'deleted' | 'providerUserId'>, userId: string): PlanRefusal | undefined {
  if (plan.deleted) return { kind: 'planDeleted' };
  if (plan.providerUserId === userId) return { kind: 'ownPlan' };
  return undefined;
}

/**
 * Subscribing: the first period is charged now and paid for a calendar month, on today's billing
 * day. `newest` is the subscriber's newest subscription to the plan: one that has not ended is
 * refused, as are the own plan, a deleted plan and a price other than the one confirmed.
 */
export function decideSubscribe(newest: SubscriptionState | undefined, command: StartSubscription, now: Date): SubscribeDecision {
  const { subscriptionId, generation, subscriberUserId, plan, expectedPriceMlx } = command.data;
  const refused = planRefusal(plan, subscriberUserId);
  if (refused) return { refusal: refused };
  if (expectedPriceMlx !== undefined && expectedPriceMlx !== plan.priceMlx)
    return { refusal: { kind: 'priceChanged', priceMlx: plan.priceMlx } };
  if (newest && !newest.ended) return { refusal: { kind: 'alreadySubscribed' } };
  const billingDay = now.getUTCDate();
  return {
    chargeMlx: plan.priceMlx,
    started: {
      type: 'SubscriptionStarted',
      data: {
        subscriptionId,
        period: 1,
        attempt: 1,
        priceMlx: mlxToWire(plan.priceMlx),
        transferId: subscriptionChargeTransferId(subscriptionId, 1),
        chargedAt: now.toISOString(),
        paidThrough: addMonthsOnBillingDay(now, 1, billingDay).toISOString(),
        billingDay,
        planId: plan.planId,
        providerUserId: plan.providerUserId,
        subscriberUserId,
        generation,
        planName: plan.name,
      },
    },
  };
}

/** The wallet send that pays one period: subscriber to provider, fee 0, named by subscription and period. */
export function chargeTransfer(
  subscriptionId: string,
  period: number,
  priceMlx: bigint,
  provider: { address: string; walletId: string },
): ReserveTransfer {
  return {
    type: 'ReserveTransfer',
    data: {
      transferId: subscriptionChargeTransferId(subscriptionId, period),
      toAddress: provider.address,
      toWalletId: provider.walletId,
      amountMlx: priceMlx,
      feeMlx: 0n,
      reference: { kind: 'subscriptionCharge', subscriptionId, period },
    },
  };
}

export type CancelRefusal = { kind: 'notYours' } | { kind: 'alreadyCancelled' };
export type SubscriptionDecision<Refusal> = { events: SubscriptionEvent[] } | { refusal: Refusal };

/**
 * Cancels at the end of the paid period (at once when past due). The subscriber or the plan's
 * provider may; an already cancelled or ended subscription is refused.
 */
export function decideCancel(state: SubscriptionState, command: CancelSubscription, now: Date): SubscriptionDecision<CancelRefusal> {
  const { userId } = command.data;
  const { subscriberUserId, providerUserId } = state;
  if (userId !== subscriberUserId && userId !== providerUserId) return { refusal: { kind: 'notYours' } };
  if (state.cancellation || state.ended) return { refusal: { kind: 'alreadyCancelled' } };
  const by: CancelledBy = userId === subscriberUserId ? 'subscriber' : 'provider';
  return { events: cancellationEvents(state, by, now, userId) };
}

/**
 * What one renewal job does. 'stale': its (period, attempt) is no longer the open renewal
 * (charged, failed or ended already); 'notDue': before its time; 'ended': a cancelled subscription,
 * a deleted plan, a closed wallet or the last failed attempt ends it; 'charge': the wallet is to
 * charge `priceMlx` in the same append as `events`; 'failed': the charge found too little MLX.
 */
export type RenewalDecision =
  | { kind: 'stale' }
  | { kind: 'notDue'; dueAt: Date }
  | { kind: 'ended'; reason: CancelledBy; events: SubscriptionEvent[] }
  | { kind: 'charge'; period: number; priceMlx: bigint; events: SubscriptionEvent[] }
  | { kind: 'failed'; nextAttemptAt: Date; events: SubscriptionEvent[] };

/** A closed wallet ends the subscription (ADR 042): the subscriber's as theirs, the provider's as its plan's. */
const closedWalletEnding = { subscriberClosed: 'subscriber', providerClosed: 'planDeleted' } as const satisfies Record<string, CancelledBy>;

/**
 * The renewal rules: a cancelled subscription ends when its paid period does; a deleted plan ends
 * it; otherwise the plan's current price is charged, but never more than the subscriber agreed to
 * (ADR 044). A charge refused for too little MLX is retried on the schedule (schedule.ts), and the
 * last failure cancels as 'unpaid'.
 */
export function decideRenewal(state: SubscriptionState | undefined, command: RenewSubscription, now: Date): RenewalDecision {
  if (!state) return { kind: 'stale' };
  const { period, attempt, plan, chargeRefused } = command.data;
  const open = openRenewal(state);
  if (!open || open.period !== period || open.attempt !== attempt) return { kind: 'stale' };
  if (now < open.dueAt) return { kind: 'notDue', dueAt: open.dueAt };
  if (state.cancellation) {
    const reason = state.cancellation.by;
    const ended: SubscriptionEvent = {
      type: 'SubscriptionEnded',
      data: { subscriptionId: state.subscriptionId, period, attempt, reason, endedAt: now.toISOString() },
    };
    return { kind: 'ended', reason, events: [ended] };
  }
  if (plan.priceMlx === undefined) return { kind: 'ended', reason: 'planDeleted', events: cancellationEvents(state, 'planDeleted', now) };
  const priceMlx = renewalPriceMlx(mlxFromWire(state.agreedPriceMlx), plan.priceMlx);
  const dueAt = attemptDueAt(new Date(state.paidThrough), 1);
  if (!chargeRefused) return { kind: 'charge', period, priceMlx, events: [renewedEvent(state, period, attempt, priceMlx, dueAt, now)] };
  if (chargeRefused.kind !== 'insufficientFunds') {
    const reason = closedWalletEnding[chargeRefused.kind];
    return { kind: 'ended', reason, events: cancellationEvents(state, reason, now) };
  }
  if (attempt >= CHARGE_ATTEMPTS_MAX) {
    const unpaid = cancellationEvents({ ...state, failedAttempts: Math.max(1, state.failedAttempts) }, 'unpaid', now);
    return { kind: 'ended', reason: 'unpaid', events: unpaid };
  }
  const nextAttemptAt = attemptDueAt(dueAt, attempt + 1);
  const failed: SubscriptionEvent = {
    type: 'SubscriptionChargeFailed',
    data: {
      subscriptionId: state.subscriptionId,
      period,
      attempt,
      priceMlx: mlxToWire(priceMlx),
      reason: 'insufficientFunds',
      failedAt: now.toISOString(),
      nextAttemptAt: nextAttemptAt.toISOString(),
    },
  };
  return { kind: 'failed', nextAttemptAt, events: [failed] };
}

function renewedEvent(
  state: SubscriptionState,
  period: number,
  attempt: number,
  priceMlx: bigint,
  dueAt: Date,
  now: Date,
): SubscriptionEvent {
  const { paidThrough, billingDay } = paidThroughAfter({ attempt, dueAt, chargedAt: now, billingDay: state.billingDay });
  return {
    type: 'SubscriptionRenewed',
    data: {
      subscriptionId: state.subscriptionId,
      period,
      attempt,
      priceMlx: mlxToWire(priceMlx),
      transferId: subscriptionChargeTransferId(state.subscriptionId, period),
      chargedAt: now.toISOString(),
      paidThrough: paidThrough.toISOString(),
      billingDay,
    },
  };
}

/** A live subscription learns of each plan edit's price change once; an ended or cancelled one not at all. */
export function decideAnnouncePriceChange(state: SubscriptionState, command: AnnouncePriceChange, now: Date): SubscriptionEvent[] {
  const change = command.data;
  if (state.ended || state.cancellation || state.announcedPlanRevisions.includes(change.planRevision)) return [];
  return [
    {
      type: 'SubscriptionPriceChangeAnnounced',
      data: { subscriptionId: state.subscriptionId, ...change, effectiveFrom: state.paidThrough, announcedAt: now.toISOString() },
    },
  ];
}

/** An e-mail is recorded once per e-mail id, so a re-run job sends nothing twice. */
export function decideRecordEmail(state: SubscriptionState, command: RecordSubscriptionEmail, now: Date): SubscriptionEvent[] {
  const { emailId, messageId } = command.data;
  if (state.emailsSent.includes(emailId)) return [];
  return [{ type: 'SubscriptionEmailSent', data: { subscriptionId: state.subscriptionId, emailId, messageId, sentAt: now.toISOString() } }];
}

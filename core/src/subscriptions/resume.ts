/**
 * Resuming a cancelled subscription (issue 25, ADR 059). A subscriber who cancelled keeps the
 * period they paid for; until it ends they may take the cancellation back, and the subscription
 * renews as before, at the price they agreed to (ADR 044). Only the subscriber's own cancellation
 * is theirs to take back: one by the provider, for non-payment, for a deleted plan or for an
 * unaccepted price stands. Pure: the handler loads the subscription and its plan and appends what
 * this decides.
 */
import type { SubscriptionEvent } from './events.js';
import type { PlanPrice } from './price.js';
import type { SubscriptionState } from './state.js';

export type ResumeRefusal =
  | { kind: 'notSubscriber' }
  | { kind: 'notCancelled' }
  | { kind: 'ended' }
  | { kind: 'notCancelledBySubscriber' }
  | { kind: 'planDeleted' };

export type ResumeDecision = { events: SubscriptionEvent[] } | { refusal: ResumeRefusal };

/**
 * The subscriber resumes their cancelled subscription before its paid period ends. Anything else
 * (someone else's subscription, one that is not cancelled, one already over or whose period has
 * run out, one cancelled by someone else or whose plan is gone) is refused and appends nothing.
 */
export function decideResume(state: SubscriptionState, command: { userId: string; plan: PlanPrice; now: Date }): ResumeDecision {
  if (command.userId !== state.subscriberUserId) return { refusal: { kind: 'notSubscriber' } };
  if (state.ended) return { refusal: { kind: 'ended' } };
  const { cancellation } = state;
  if (!cancellation) return { refusal: { kind: 'notCancelled' } };
  // The period it was paid for has run out: the renewal job is about to end it, so it is over.
  if (new Date(cancellation.endsAt) <= command.now) return { refusal: { kind: 'ended' } };
  if (cancellation.by !== 'subscriber') return { refusal: { kind: 'notCancelledBySubscriber' } };
  if (command.plan.priceMlx === undefined) return { refusal: { kind: 'planDeleted' } };
  return {
    events: [
      {
        type: 'SubscriptionResumed',
        data: { subscriptionId: state.subscriptionId, byUserId: command.userId, resumedAt: command.now.toISOString() },
      },
    ],
  };
}

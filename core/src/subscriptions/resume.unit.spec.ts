// Proves the resume rules (ADR 059): only the subscriber resumes, only their own cancellation, only
// before its paid period ends and only while the plan exists; everything else is refused with its
// reason and appends nothing; once resumed the subscription is active again, its open renewal
// falls at the end of the paid period and charges the price agreed before, not a higher one.
import { describe, expect, it } from 'vitest';
import type { CancelledBy, SubscriptionEvent } from './events.js';
import { pendingPriceMlx, renewalPriceMlx } from './price.js';
import { decideResume } from './resume.js';
import { cancellationEvents, evolveSubscription, openRenewal, type SubscriptionState, subscriptionStatus } from './state.js';

const SUB = 'sub_0123456789abcdef01234567';
const PAID_THROUGH = '2026-02-15T10:00:00.000Z';
const NOW = new Date('2026-01-20T10:00:00.000Z');
const plan = { priceMlx: 1_000n };
const started: SubscriptionEvent = {
  type: 'SubscriptionStarted',
  data: {
    subscriptionId: SUB,
    period: 1,
    attempt: 1,
    priceMlx: '1000',
    transferId: `subscription-${SUB}-1`,
    chargedAt: '2026-01-15T10:00:00.000Z',
    paidThrough: PAID_THROUGH,
    billingDay: 15,
    planId: '00000000-0000-4000-8000-000000000001',
    providerUserId: 'owner',
    subscriberUserId: 'alice',
    generation: 1,
    planName: 'Gold',
  },
};

function fold(...events: SubscriptionEvent[]): SubscriptionState {
  let state: SubscriptionState | undefined;
  events.forEach((event, i) => {
    state = evolveSubscription(state, event, BigInt(i));
  });
  if (!state) throw new Error('no state');
  return state;
}
const cancelledBy = (by: CancelledBy, now = NOW) =>
  fold(started, ...cancellationEvents(fold(started), by, now, by === 'subscriber' ? 'alice' : 'owner'));

describe('decideResume', () => {
  it('given the subscriber cancelled and the period runs on, when they resume, then SubscriptionResumed makes it active again', () => {
    const state = cancelledBy('subscriber');
    expect(subscriptionStatus(state)).toBe('cancelled');
    const decision = decideResume(state, { userId: 'alice', plan, now: NOW });
    expect(decision).toEqual({
      events: [{ type: 'SubscriptionResumed', data: { subscriptionId: SUB, byUserId: 'alice', resumedAt: NOW.toISOString() } }],
    });
    if (!('events' in decision)) throw new Error('refused');
    const resumed = fold(started, ...cancellationEvents(fold(started), 'subscriber', NOW, 'alice'), ...decision.events);
    expect(subscriptionStatus(resumed)).toBe('active');
    expect(resumed.cancellation).toBeUndefined();
    expect(openRenewal(resumed)).toEqual({ period: 2, attempt: 1, dueAt: new Date(PAID_THROUGH) });
  });

  it('given a resumed subscription and a raised plan price, then the renewal charges the agreed price and the raise waits for consent', () => {
    const state = cancelledBy('subscriber');
    const decision = decideResume(state, { userId: 'alice', plan: { priceMlx: 5_000n }, now: NOW });
    if (!('events' in decision)) throw new Error('refused');
    const resumed = fold(started, ...cancellationEvents(fold(started), 'subscriber', NOW, 'alice'), ...decision.events);
    expect(renewalPriceMlx(BigInt(resumed.agreedPriceMlx), 5_000n)).toBe(1_000n);
    expect(pendingPriceMlx(resumed, { priceMlx: 5_000n })).toBe(5_000n);
  });

  it('refuses the provider and anyone else', () => {
    const state = cancelledBy('subscriber');
    expect(decideResume(state, { userId: 'owner', plan, now: NOW })).toEqual({ refusal: { kind: 'notSubscriber' } });
    expect(decideResume(state, { userId: 'mallory', plan, now: NOW })).toEqual({ refusal: { kind: 'notSubscriber' } });
  });

  it('refuses a subscription that is not cancelled', () => {
    expect(decideResume(fold(started), { userId: 'alice', plan, now: NOW })).toEqual({ refusal: { kind: 'notCancelled' } });
  });

  it('refuses once the paid period has run out, and once ended', () => {
    const state = cancelledBy('subscriber');
    expect(decideResume(state, { userId: 'alice', plan, now: new Date(PAID_THROUGH) })).toEqual({ refusal: { kind: 'ended' } });
    const ended = fold(started, ...cancellationEvents(fold(started), 'subscriber', NOW, 'alice'), {
      type: 'SubscriptionEnded',
      data: { subscriptionId: SUB, period: 2, attempt: 1, reason: 'subscriber', endedAt: PAID_THROUGH },
    });
    expect(decideResume(ended, { userId: 'alice', plan, now: NOW })).toEqual({ refusal: { kind: 'ended' } });
    // Cancelling after the period ran out ends it at once: nothing to resume.
    const late = cancelledBy('subscriber', new Date('2026-03-01T00:00:00.000Z'));
    expect(decideResume(late, { userId: 'alice', plan, now: NOW })).toEqual({ refusal: { kind: 'ended' } });
  });

  it("refuses a cancellation that was not the subscriber's", () => {
    for (const by of ['provider', 'priceNotAccepted', 'planDeleted'] as const)
      expect(decideResume(cancelledBy(by), { userId: 'alice', plan, now: NOW }), by).toEqual({
        refusal: { kind: 'notCancelledBySubscriber' },
      });
  });

  it('refuses when the plan was deleted meanwhile', () => {
    expect(decideResume(cancelledBy('subscriber'), { userId: 'alice', plan: { priceMlx: undefined }, now: NOW })).toEqual({
      refusal: { kind: 'planDeleted' },
    });
  });
});

// Proves the price consent rules (ADR 044): a renewal charges the lower of the plan's price and the
// agreed one; only a live subscription's subscriber accepts a pending increase, and only at exactly
// the price pending now; only its provider ends it for an unaccepted increase, at the end of the
// paid period (at once when past due); a decrease charged becomes the agreed price.
import { describe, expect, it } from 'vitest';
import type { SubscriptionEvent } from './events.js';
import { type PlanPrice, decideAcceptPrice, decideEndForUnacceptedPrice, pendingPriceMlx, renewalPriceMlx } from './price.js';
import { evolveSubscription, type SubscriptionState } from './state.js';

const SUB = 'sub_0123456789abcdef01234567';
const NOW = new Date('2026-01-20T10:00:00.000Z');
const started: SubscriptionEvent = {
  type: 'SubscriptionStarted',
  data: {
    subscriptionId: SUB,
    period: 1,
    attempt: 1,
    priceMlx: '1000',
    transferId: `subscription-${SUB}-1`,
    chargedAt: '2026-01-15T10:00:00.000Z',
    paidThrough: '2026-02-15T10:00:00.000Z',
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
const raised: PlanPrice = { priceMlx: 1_000_000n };

describe('renewal price', () => {
  it('charges the plan price when lower, never more than the agreed price', () => {
    expect(renewalPriceMlx(1_000n, 1_000_000n)).toBe(1_000n);
    expect(renewalPriceMlx(1_000n, 600n)).toBe(600n);
    expect(renewalPriceMlx(1_000n, 1_000n)).toBe(1_000n);
  });

  it('a renewal at a lower price becomes the agreed price, so a later raise back is pending again', () => {
    const renewed = fold(started, {
      type: 'SubscriptionRenewed',
      data: { ...started.data, period: 2, priceMlx: '600', transferId: `subscription-${SUB}-2` },
    } as SubscriptionEvent);
    expect(renewed.agreedPriceMlx).toBe('600');
    expect(pendingPriceMlx(renewed, { priceMlx: 1_000n })).toBe(1_000n);
  });

  it('nothing is pending at or below the agreed price, for a deleted plan, or once cancelled', () => {
    const state = fold(started);
    expect(pendingPriceMlx(state, { priceMlx: 1_000n })).toBeUndefined();
    expect(pendingPriceMlx(state, { priceMlx: 5n })).toBeUndefined();
    expect(pendingPriceMlx(state, { priceMlx: undefined })).toBeUndefined();
    expect(pendingPriceMlx(state, raised)).toBe(1_000_000n);
    const cancelled = fold(started, {
      type: 'SubscriptionCancelled',
      data: { subscriptionId: SUB, by: 'subscriber', cancelledAt: NOW.toISOString(), endsAt: '2026-02-15T10:00:00.000Z' },
    });
    expect(pendingPriceMlx(cancelled, raised)).toBeUndefined();
  });
});

describe('accepting a higher price', () => {
  it('given a pending increase, when the subscriber accepts exactly it, then SubscriptionPriceAccepted raises the agreed price', () => {
    const decision = decideAcceptPrice(fold(started), { userId: 'alice', seenPriceMlx: 1_000_000n, plan: raised, now: NOW });
    expect(decision).toEqual({
      events: [
        {
          type: 'SubscriptionPriceAccepted',
          data: { subscriptionId: SUB, byUserId: 'alice', previousPriceMlx: '1000', priceMlx: '1000000', acceptedAt: NOW.toISOString() },
        },
      ],
    });
    if (!('events' in decision)) throw new Error('refused');
    const [accepted] = decision.events;
    if (!accepted) throw new Error('no event');
    expect(fold(started, accepted).agreedPriceMlx).toBe('1000000');
  });

  it('refuses the provider, a stranger, a stale price, no pending increase and a cancelled subscription', () => {
    const state = fold(started);
    const accept = (userId: string, seenPriceMlx: bigint, plan = raised, s = state) =>
      decideAcceptPrice(s, { userId, seenPriceMlx, plan, now: NOW });
    expect(accept('owner', 1_000_000n)).toEqual({ refusal: { kind: 'notSubscriber' } });
    expect(accept('mallory', 1_000_000n)).toEqual({ refusal: { kind: 'notSubscriber' } });
    expect(accept('alice', 2_000n)).toEqual({ refusal: { kind: 'staleOffer', pendingPriceMlx: 1_000_000n } });
    expect(accept('alice', 1_000_000n, { priceMlx: 2_000_000n })).toEqual({ refusal: { kind: 'staleOffer', pendingPriceMlx: 2_000_000n } });
    expect(accept('alice', 1_000n, { priceMlx: 1_000n })).toEqual({ refusal: { kind: 'noIncreasePending' } });
    expect(accept('alice', 1_000_000n, { priceMlx: undefined })).toEqual({ refusal: { kind: 'noIncreasePending' } });
    const ended = fold(started, {
      type: 'SubscriptionEnded',
      data: { subscriptionId: SUB, period: 2, attempt: 1, reason: 'subscriber', endedAt: NOW.toISOString() },
    });
    expect(accept('alice', 1_000_000n, raised, ended)).toEqual({ refusal: { kind: 'notLive' } });
  });
});

describe('the provider ending a subscription for an unaccepted increase', () => {
  it('given a pending increase, then it is cancelled now and ends when its paid period does', () => {
    const decision = decideEndForUnacceptedPrice(fold(started), { userId: 'owner', plan: raised, now: NOW });
    expect(decision).toEqual({
      events: [
        {
          type: 'SubscriptionCancelled',
          data: {
            subscriptionId: SUB,
            by: 'priceNotAccepted',
            byUserId: 'owner',
            cancelledAt: NOW.toISOString(),
            endsAt: '2026-02-15T10:00:00.000Z',
          },
        },
      ],
    });
  });

  it('given a past-due subscription, then nothing is paid ahead and it ends at once', () => {
    const pastDue = fold(started, {
      type: 'SubscriptionChargeFailed',
      data: {
        subscriptionId: SUB,
        period: 2,
        attempt: 1,
        priceMlx: '1000',
        reason: 'insufficientFunds',
        failedAt: '2026-02-15T10:00:00.000Z',
        nextAttemptAt: '2026-02-16T10:00:00.000Z',
      },
    });
    const decision = decideEndForUnacceptedPrice(pastDue, { userId: 'owner', plan: raised, now: new Date('2026-02-15T12:00:00.000Z') });
    if (!('events' in decision)) throw new Error('refused');
    expect(decision.events.map((e) => e.type)).toEqual(['SubscriptionCancelled', 'SubscriptionEnded']);
  });

  it('refuses the subscriber, a stranger, and a subscription with no pending increase or already cancelled', () => {
    const state = fold(started);
    expect(decideEndForUnacceptedPrice(state, { userId: 'alice', plan: raised, now: NOW })).toEqual({ refusal: { kind: 'notProvider' } });
    expect(decideEndForUnacceptedPrice(state, { userId: 'x', plan: raised, now: NOW })).toEqual({ refusal: { kind: 'notProvider' } });
    expect(decideEndForUnacceptedPrice(state, { userId: 'owner', plan: { priceMlx: 900n }, now: NOW })).toEqual({
      refusal: { kind: 'noIncreasePending' },
    });
    const cancelled = fold(started, {
      type: 'SubscriptionCancelled',
      data: { subscriptionId: SUB, by: 'subscriber', cancelledAt: NOW.toISOString(), endsAt: '2026-02-15T10:00:00.000Z' },
    });
    expect(decideEndForUnacceptedPrice(cancelled, { userId: 'owner', plan: raised, now: NOW })).toEqual({ refusal: { kind: 'notLive' } });
  });
});

// Proves the subscription decider: subscribing refuses a deleted plan, the own plan, a changed price
// and a second live subscription, and otherwise charges a month on today's billing day; cancelling
// is the subscriber's or the provider's, once; a renewal is stale, not due, ended (cancelled, plan
// deleted, closed wallet, last failure) or charged at min(agreed, plan price), and a charge refused
// for want of MLX is retried on the schedule; announcements and e-mails are recorded once.
import { describe, expect, it } from 'vitest';
import type { RenewSubscription, StartSubscription } from './commands.js';
import {
  chargeTransfer,
  decideAnnouncePriceChange,
  decideCancel,
  decideRecordEmail,
  decideRenewal,
  decideSubscribe,
  planRefusal,
} from './decider.js';
import type { SubscriptionEvent, SubscriptionStarted } from './events.js';
import { evolveSubscription, type SubscriptionState } from './state.js';

const SUB = 'sub_0123456789abcdef01234567';
const PLAN = '00000000-0000-4000-8000-000000000001';
const STARTED_AT = new Date('2026-01-15T10:00:00.000Z');
const DUE = new Date('2026-02-15T10:00:00.000Z');

const subscribeCommand = (over: Partial<StartSubscription['data']> = {}): StartSubscription => ({
  type: 'StartSubscription',
  data: {
    subscriptionId: SUB,
    generation: 1,
    subscriberUserId: 'alice',
    plan: { planId: PLAN, providerUserId: 'owner', name: 'Gold', priceMlx: 1_000n, deleted: false },
    ...over,
  },
});

function startedEvent(): SubscriptionStarted {
  const decision = decideSubscribe(undefined, subscribeCommand(), STARTED_AT);
  if (!('started' in decision)) throw new Error('subscribing was refused');
  return decision.started;
}

function fold(...events: SubscriptionEvent[]): SubscriptionState {
  let state: SubscriptionState | undefined;
  events.forEach((event, i) => {
    state = evolveSubscription(state, event, BigInt(i));
  });
  if (!state) throw new Error('no state');
  return state;
}

const renew = (period: number, attempt: number, over: Partial<RenewSubscription['data']> = {}): RenewSubscription => ({
  type: 'RenewSubscription',
  data: { period, attempt, plan: { priceMlx: 1_000n }, ...over },
});

describe('subscribing', () => {
  it('charges the plan price now and pays through a month later, on the billing day', () => {
    const decision = decideSubscribe(undefined, subscribeCommand({ expectedPriceMlx: 1_000n }), STARTED_AT);
    expect(decision).toEqual({
      chargeMlx: 1_000n,
      started: {
        type: 'SubscriptionStarted',
        data: {
          subscriptionId: SUB,
          period: 1,
          attempt: 1,
          priceMlx: '1000',
          transferId: `subscription-${SUB}-1`,
          chargedAt: STARTED_AT.toISOString(),
          paidThrough: DUE.toISOString(),
          billingDay: 15,
          planId: PLAN,
          providerUserId: 'owner',
          subscriberUserId: 'alice',
          generation: 1,
          planName: 'Gold',
        },
      },
    });
  });

  it('refuses a deleted plan, the own plan, a changed price and a subscription that has not ended', () => {
    const plan = subscribeCommand().data.plan;
    expect(decideSubscribe(undefined, subscribeCommand({ plan: { ...plan, deleted: true } }), STARTED_AT)).toEqual({
      refusal: { kind: 'planDeleted' },
    });
    expect(decideSubscribe(undefined, subscribeCommand({ subscriberUserId: 'owner' }), STARTED_AT)).toEqual({
      refusal: { kind: 'ownPlan' },
    });
    expect(decideSubscribe(undefined, subscribeCommand({ expectedPriceMlx: 900n }), STARTED_AT)).toEqual({
      refusal: { kind: 'priceChanged', priceMlx: 1_000n },
    });
    const live = fold(startedEvent());
    expect(decideSubscribe(live, subscribeCommand({ generation: 2 }), STARTED_AT)).toEqual({ refusal: { kind: 'alreadySubscribed' } });
  });

  it('subscribes again once the newest subscription has ended', () => {
    const over = fold(startedEvent(), ...decideCancelEvents(fold(startedEvent()), 'alice', DUE));
    expect(over.ended).toBeDefined();
    expect('started' in decideSubscribe(over, subscribeCommand({ generation: 2 }), DUE)).toBe(true);
  });

  it('a quote checks the plan the same way', () => {
    expect(planRefusal({ deleted: false, providerUserId: 'owner' }, 'alice')).toBeUndefined();
    expect(planRefusal({ deleted: true, providerUserId: 'owner' }, 'owner')).toEqual({ kind: 'planDeleted' });
    expect(planRefusal({ deleted: false, providerUserId: 'owner' }, 'owner')).toEqual({ kind: 'ownPlan' });
  });

  it('charges subscriber to provider without a fee, named by subscription and period', () => {
    expect(chargeTransfer(SUB, 3, 700n, { address: 'addr', walletId: 'owner' })).toEqual({
      type: 'ReserveTransfer',
      data: {
        transferId: `subscription-${SUB}-3`,
        toAddress: 'addr',
        toWalletId: 'owner',
        amountMlx: 700n,
        feeMlx: 0n,
        reference: { kind: 'subscriptionCharge', subscriptionId: SUB, period: 3 },
      },
    });
  });
});

function decideCancelEvents(state: SubscriptionState, userId: string, now: Date): SubscriptionEvent[] {
  const decision = decideCancel(state, { type: 'CancelSubscription', data: { userId } }, now);
  if (!('events' in decision)) throw new Error(`cancel refused: ${decision.refusal.kind}`);
  return decision.events;
}

describe('cancelling', () => {
  const mid = new Date('2026-01-20T10:00:00.000Z');

  it('by the subscriber or the provider ends with the paid period', () => {
    const [bySubscriber] = decideCancelEvents(fold(startedEvent()), 'alice', mid);
    expect(bySubscriber).toEqual({
      type: 'SubscriptionCancelled',
      data: { subscriptionId: SUB, by: 'subscriber', byUserId: 'alice', cancelledAt: mid.toISOString(), endsAt: DUE.toISOString() },
    });
    const byProvider = decideCancelEvents(fold(startedEvent()), 'owner', mid);
    expect(byProvider).toHaveLength(1);
    expect(byProvider[0]?.data).toMatchObject({ by: 'provider', byUserId: 'owner' });
  });

  it('ends at once when nothing is paid ahead', () => {
    expect(decideCancelEvents(fold(startedEvent()), 'alice', DUE).map((e) => e.type)).toEqual([
      'SubscriptionCancelled',
      'SubscriptionEnded',
    ]);
  });

  it('refuses anyone else, and a second cancellation', () => {
    const state = fold(startedEvent());
    expect(decideCancel(state, { type: 'CancelSubscription', data: { userId: 'mallory' } }, mid)).toEqual({
      refusal: { kind: 'notYours' },
    });
    const cancelled = fold(startedEvent(), ...decideCancelEvents(state, 'alice', mid));
    expect(decideCancel(cancelled, { type: 'CancelSubscription', data: { userId: 'owner' } }, mid)).toEqual({
      refusal: { kind: 'alreadyCancelled' },
    });
  });
});

describe('renewing', () => {
  it('is stale without a subscription or for another (period, attempt), and not due before its time', () => {
    const state = fold(startedEvent());
    expect(decideRenewal(undefined, renew(2, 1), DUE)).toEqual({ kind: 'stale' });
    expect(decideRenewal(state, renew(3, 1), DUE)).toEqual({ kind: 'stale' });
    expect(decideRenewal(state, renew(2, 2), DUE)).toEqual({ kind: 'stale' });
    expect(decideRenewal(state, renew(2, 1), new Date(DUE.getTime() - 1))).toEqual({ kind: 'notDue', dueAt: DUE });
  });

  it('charges min(agreed, plan price) and pays through the next billing day', () => {
    const state = fold(startedEvent());
    const late = new Date(DUE.getTime() + 60_000);
    const decision = decideRenewal(state, renew(2, 1, { plan: { priceMlx: 600n } }), late);
    expect(decision).toEqual({
      kind: 'charge',
      period: 2,
      priceMlx: 600n,
      events: [
        {
          type: 'SubscriptionRenewed',
          data: {
            subscriptionId: SUB,
            period: 2,
            attempt: 1,
            priceMlx: '600',
            transferId: `subscription-${SUB}-2`,
            chargedAt: late.toISOString(),
            paidThrough: '2026-03-15T10:00:00.000Z',
            billingDay: 15,
          },
        },
      ],
    });
    const raised = decideRenewal(state, renew(2, 1, { plan: { priceMlx: 5_000n } }), DUE);
    expect(raised.kind === 'charge' && raised.priceMlx).toBe(1_000n);
  });

  it('ends a cancelled subscription at the end of its period, and one whose plan was deleted', () => {
    const mid = new Date('2026-01-20T10:00:00.000Z');
    const cancelled = fold(startedEvent(), ...decideCancelEvents(fold(startedEvent()), 'owner', mid));
    expect(decideRenewal(cancelled, renew(2, 1), DUE)).toEqual({
      kind: 'ended',
      reason: 'provider',
      events: [
        { type: 'SubscriptionEnded', data: { subscriptionId: SUB, period: 2, attempt: 1, reason: 'provider', endedAt: DUE.toISOString() } },
      ],
    });
    const deleted = decideRenewal(fold(startedEvent()), renew(2, 1, { plan: { priceMlx: undefined } }), DUE);
    expect(deleted.kind === 'ended' && deleted.reason).toBe('planDeleted');
    expect(deleted.kind === 'ended' && deleted.events.map((e) => e.type)).toEqual(['SubscriptionCancelled', 'SubscriptionEnded']);
  });

  it('records too little MLX as a failed attempt, retried 1 day after it was due', () => {
    const decision = decideRenewal(fold(startedEvent()), renew(2, 1, { chargeRefused: { kind: 'insufficientFunds' } }), DUE);
    expect(decision).toEqual({
      kind: 'failed',
      nextAttemptAt: new Date('2026-02-16T10:00:00.000Z'),
      events: [
        {
          type: 'SubscriptionChargeFailed',
          data: {
            subscriptionId: SUB,
            period: 2,
            attempt: 1,
            priceMlx: '1000',
            reason: 'insufficientFunds',
            failedAt: DUE.toISOString(),
            nextAttemptAt: '2026-02-16T10:00:00.000Z',
          },
        },
      ],
    });
  });

  it('cancels as unpaid on the fourth failure', () => {
    let state = fold(startedEvent());
    let revision = state.revision;
    for (const [attempt, days] of [
      [1, 0],
      [2, 1],
      [3, 3],
    ] as const) {
      const at = new Date(DUE.getTime() + days * 86_400_000);
      const decision = decideRenewal(state, renew(2, attempt, { chargeRefused: { kind: 'insufficientFunds' } }), at);
      if (decision.kind !== 'failed') throw new Error(`attempt ${attempt}: ${decision.kind}`);
      for (const event of decision.events) state = evolveSubscription(state, event, ++revision) ?? state;
    }
    const last = decideRenewal(
      state,
      renew(2, 4, { chargeRefused: { kind: 'insufficientFunds' } }),
      new Date(DUE.getTime() + 5 * 86_400_000),
    );
    expect(last.kind === 'ended' && last.reason).toBe('unpaid');
    expect(last.kind === 'ended' && last.events.map((e) => e.type)).toEqual(['SubscriptionCancelled', 'SubscriptionEnded']);
  });

  it("ends on a closed wallet: the subscriber's as theirs, the provider's as a deleted plan", () => {
    const state = fold(startedEvent());
    const subscriber = decideRenewal(state, renew(2, 1, { chargeRefused: { kind: 'subscriberClosed' } }), DUE);
    expect(subscriber.kind === 'ended' && subscriber.reason).toBe('subscriber');
    const provider = decideRenewal(state, renew(2, 1, { chargeRefused: { kind: 'providerClosed' } }), DUE);
    expect(provider.kind === 'ended' && provider.reason).toBe('planDeleted');
  });
});

describe('announcements and e-mails', () => {
  const change = { planRevision: '7', previousPriceMlx: '1000', priceMlx: '2000' };
  const at = new Date('2026-01-20T10:00:00.000Z');

  it('announces a plan edit once, and not to a cancelled subscription', () => {
    const state = fold(startedEvent());
    const events = decideAnnouncePriceChange(state, { type: 'AnnouncePriceChange', data: change }, at);
    expect(events).toEqual([
      {
        type: 'SubscriptionPriceChangeAnnounced',
        data: { subscriptionId: SUB, ...change, effectiveFrom: DUE.toISOString(), announcedAt: at.toISOString() },
      },
    ]);
    const announced = fold(startedEvent(), ...events);
    expect(decideAnnouncePriceChange(announced, { type: 'AnnouncePriceChange', data: change }, at)).toEqual([]);
    const cancelled = fold(startedEvent(), ...decideCancelEvents(state, 'alice', at));
    expect(decideAnnouncePriceChange(cancelled, { type: 'AnnouncePriceChange', data: change }, at)).toEqual([]);
  });

  it('records an e-mail once per id', () => {
    const command = { type: 'RecordSubscriptionEmail', data: { emailId: 'receipt-1', messageId: 'm1' } } as const;
    const events = decideRecordEmail(fold(startedEvent()), command, at);
    expect(events).toEqual([
      { type: 'SubscriptionEmailSent', data: { subscriptionId: SUB, emailId: 'receipt-1', messageId: 'm1', sentAt: at.toISOString() } },
    ]);
    expect(decideRecordEmail(fold(startedEvent(), ...events), command, at)).toEqual([]);
  });
});

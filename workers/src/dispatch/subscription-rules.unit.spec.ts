// Proves the subscription dispatch rules: a charge asks for the next period's first renewal attempt
// and a failure for the same period's next attempt, each closed by the renewed, failed or ended
// event naming that pair; each e-mail job is closed by the SubscriptionEmailSent naming it; a plan
// edit asks for a price-change announcement only when the price changed; malformed events throw.
import type { RecordedEvent } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { OpenWork } from './open-work.js';
import { jobsRequestedBy } from '../job/dispatch-rule.js';
import { planPriceNoticeRule } from '../plan-price-notice/rules.js';
import { dispatchRules } from './rules.js';

const sub = `sub_${'a'.repeat(24)}`;
const planId = '00000000-0000-4000-8000-000000000001';
const at = '2026-01-31T10:00:00.000Z';
const charge = (period: number, attempt = 1) => ({
  subscriptionId: sub,
  period,
  attempt,
  priceMlx: '250000',
  transferId: `subscription-${sub}-${period}`,
  chargedAt: at,
  paidThrough: at,
  billingDay: 31,
});
const started = { ...charge(1), planId, providerUserId: 'p', subscriberUserId: 's', generation: 1, planName: 'Gold' };
const failed = (period: number, attempt: number) => ({
  subscriptionId: sub,
  period,
  attempt,
  priceMlx: '250000',
  reason: 'insufficientFunds',
  failedAt: at,
  nextAttemptAt: at,
});

let position = 0n;
const event = (type: string, data: Record<string, unknown>, revision = 0n, streamId = `subscription-${sub}`): RecordedEvent => {
  position += 1n;
  return { id: `e${position}`, streamId, revision, position, type, data, metadata: {}, recordedAt: at };
};
const jobs = (e: RecordedEvent) => jobsRequestedBy(e, dispatchRules).map((j) => ({ queue: j.queue, jobId: j.jobId, data: j.data }));

describe('renewal rules', () => {
  it('SubscriptionStarted asks for period 2 attempt 1; a renewal of p for p+1; a failure of (p, a) for (p, a+1)', () => {
    expect(jobs(event('SubscriptionStarted', started)).filter((j) => j.queue === 'subscription-renewal')).toEqual([
      { queue: 'subscription-renewal', jobId: `subscription-renewal-${sub}-2-1`, data: { subscriptionId: sub, period: 2, attempt: 1 } },
    ]);
    expect(jobs(event('SubscriptionRenewed', charge(5))).find((j) => j.queue === 'subscription-renewal')?.jobId).toBe(
      `subscription-renewal-${sub}-6-1`,
    );
    expect(jobs(event('SubscriptionChargeFailed', failed(5, 2))).find((j) => j.queue === 'subscription-renewal')?.jobId).toBe(
      `subscription-renewal-${sub}-5-3`,
    );
  });

  it('the same request twice gives the same job; open work closes on the event naming the pair, whichever it is', () => {
    const ids = () => jobs(event('SubscriptionStarted', started)).map((j) => j.jobId);
    expect(ids()).toEqual(ids());
    expect(ids()).toContain(`subscription-renewal-${sub}-2-1`);
    const work = new OpenWork(dispatchRules, 1_000);
    const renewalIds = () =>
      work
        .drain()
        .filter((j) => j.queue === 'subscription-renewal')
        .map((j) => j.jobId);
    work.observe(event('SubscriptionStarted', started));
    work.observe(event('SubscriptionChargeFailed', failed(2, 1)));
    work.observe(event('SubscriptionChargeFailed', failed(2, 2)));
    expect(renewalIds()).toEqual([`subscription-renewal-${sub}-2-3`]);
    for (const e of [event('SubscriptionStarted', started), event('SubscriptionRenewed', charge(2))]) work.observe(e);
    expect(renewalIds()).toEqual([`subscription-renewal-${sub}-3-1`]);
    work.observe(event('SubscriptionStarted', started));
    work.observe(event('SubscriptionEnded', { subscriptionId: sub, period: 2, attempt: 1, reason: 'subscriber', endedAt: at }));
    expect(renewalIds()).toEqual([]);
  });

  it('a malformed request throws instead of enqueueing a job for nothing', () => {
    expect(() => jobs(event('SubscriptionRenewed', { ...charge(2), period: 0 }))).toThrow(/well-formed SubscriptionRenewed/);
    expect(() => jobs(event('SubscriptionStarted', { ...started, subscriptionId: 'nope' }))).toThrow();
  });
});

describe('e-mail rules', () => {
  const emailJobs = (e: RecordedEvent) => jobs(e).filter((j) => j.queue === 'subscription-email');

  it('each event asks for its e-mails, keyed by the event', () => {
    expect(emailJobs(event('SubscriptionStarted', started)).map((j) => j.data)).toEqual([
      { subscriptionId: sub, kind: 'receipt', key: '1' },
      { subscriptionId: sub, kind: 'newSubscriberProvider', key: '1' },
    ]);
    expect(emailJobs(event('SubscriptionRenewed', charge(7))).map((j) => j.jobId)).toEqual([`subscription-email-${sub}-receipt-7`]);
    expect(emailJobs(event('SubscriptionChargeFailed', failed(7, 3))).map((j) => j.jobId)).toEqual([
      `subscription-email-${sub}-chargeFailed-7-3`,
    ]);
    const cancelled = event('SubscriptionCancelled', { subscriptionId: sub, by: 'unpaid', cancelledAt: at, endsAt: at }, 9n);
    expect(emailJobs(cancelled).map((j) => j.jobId)).toEqual([
      `subscription-email-${sub}-cancelledSubscriber-9`,
      `subscription-email-${sub}-cancelledProvider-9`,
    ]);
    const announced = event('SubscriptionPriceChangeAnnounced', {
      subscriptionId: sub,
      planRevision: '4',
      previousPriceMlx: '250000',
      priceMlx: '300000',
      effectiveFrom: at,
      announcedAt: at,
    });
    expect(emailJobs(announced).map((j) => j.jobId)).toEqual([`subscription-email-${sub}-priceChange-4`]);
    expect(emailJobs(event('SubscriptionEnded', { subscriptionId: sub, period: 2, attempt: 1, reason: 'unpaid', endedAt: at }))).toEqual(
      [],
    );
  });

  it('SubscriptionEmailSent closes exactly the e-mail it names', () => {
    const work = new OpenWork(dispatchRules, 1_000);
    work.observe(event('SubscriptionStarted', started));
    work.observe(event('SubscriptionEmailSent', { subscriptionId: sub, emailId: 'receipt-1', messageId: '<m@q>', sentAt: at }));
    expect(
      work
        .drain()
        .filter((j) => j.queue === 'subscription-email')
        .map((j) => j.jobId),
    ).toEqual([`subscription-email-${sub}-newSubscriberProvider-1`]);
  });
});

describe('price-change rule', () => {
  const terms = { name: 'Gold', description: 'd', priceMlx: '300000', currency: 'mlx', duration: 'monthly', planId, updatedAt: at };

  it('an edit that changed the price asks for one announcement per plan revision; other edits ask for none', () => {
    const changed = event('PlanUpdated', { ...terms, previousPriceMlx: '250000' }, 3n, `plan-${planId}`);
    expect(jobs(changed)).toEqual([
      {
        queue: 'plan-price-notice',
        jobId: `plan-price-notice-${planId}-3`,
        data: { planId, planRevision: '3', position: changed.position.toString(), previousPriceMlx: '250000', priceMlx: '300000' },
      },
    ]);
    expect(jobs(event('PlanUpdated', { ...terms, name: 'Silver' }, 4n, `plan-${planId}`))).toEqual([]);
    const done = event('PlanPriceChangeAnnounced', { planId, planRevision: '3', subscriptions: 2, announcedAt: at }, 5n, `plan-${planId}`);
    expect(planPriceNoticeRule.matchCompletion(done)).toBe(`plan-price-notice-${planId}-3`);
  });
});

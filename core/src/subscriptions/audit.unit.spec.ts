// Proves the subscription audit (ADR 037) catches what must never happen: a period charged twice or
// skipped, a charge after the end, a charge event without its transfer, a transfer of another
// amount or with a fee, a subscription started twice, a charge above the price the subscriber
// agreed to and a price accepted by someone else; a sound trail reports nothing.
import { describe, expect, it } from 'vitest';
import { createCapabilityAuditor } from '../shared/transfer-claims.js';
import { subscriptionAuditRule, type SubscriptionViolationCode } from './audit.js';
import { subscriptionChargeTransferId, subscriptionStream } from './events.js';

const SUB = 'sub_0123456789abcdef01234567';
const PLAN = '00000000-0000-4000-8000-000000000001';
const charge = (period: number, priceMlx = '500') => ({
  subscriptionId: SUB,
  period,
  attempt: 1,
  priceMlx,
  transferId: subscriptionChargeTransferId(SUB, period),
  chargedAt: '2026-01-01T00:00:00.000Z',
  paidThrough: '2026-02-01T00:00:00.000Z',
  billingDay: 1,
});
const started = {
  type: 'SubscriptionStarted',
  data: { ...charge(1), planId: PLAN, providerUserId: 'prov', subscriberUserId: 'subr', generation: 1, planName: 'P' },
};
const renewed = (period: number, priceMlx?: string) => ({ type: 'SubscriptionRenewed', data: charge(period, priceMlx) });
const ended = {
  type: 'SubscriptionEnded',
  data: { subscriptionId: SUB, period: 3, attempt: 1, reason: 'subscriber', endedAt: '2026-03-01T00:00:00.000Z' },
};

function audit(records: Array<{ type: string; data: unknown }>, transfers: Array<{ period: number; amountMlx?: bigint; feeMlx?: bigint }>) {
  const codes: SubscriptionViolationCode[] = [];
  const auditor = createCapabilityAuditor(subscriptionAuditRule, (code) => codes.push(code));
  for (const record of records) auditor.addRecord({ streamId: subscriptionStream(SUB), ...record }, {});
  for (const t of transfers)
    auditor.offerTransfer(subscriptionChargeTransferId(SUB, t.period), {
      reference: { kind: 'subscriptionCharge', subscriptionId: SUB, period: t.period },
      payerWalletId: 'subr',
      payeeWalletId: 'prov',
      toAddress: undefined,
      amountMlx: t.amountMlx ?? 500n,
      feeMlx: t.feeMlx ?? 0n,
    });
  auditor.finalCheck((code) => codes.push(code), { transferStatus: () => undefined });
  return { codes, figures: auditor.figures() };
}

describe('subscription audit', () => {
  it('given a sound trail, then it reports nothing and counts the charges', () => {
    const { codes, figures } = audit([started, renewed(2), ended], [{ period: 1 }, { period: 2 }]);
    expect(codes).toEqual([]);
    expect(figures).toEqual({ subscriptions: 1, charges: 2, chargedMlx: 1000n, pricesAccepted: 0 });
  });

  it('given a skipped or doubled period, a charge after the end, or a second start, then it reports each', () => {
    expect(audit([started, renewed(3)], [{ period: 1 }, { period: 3 }]).codes).toContain('subscriptionPeriodOutOfOrder');
    expect(audit([started, renewed(2), renewed(2)], [{ period: 1 }, { period: 2 }]).codes).toContain('subscriptionPeriodOutOfOrder');
    expect(audit([started, ended, renewed(2)], [{ period: 1 }, { period: 2 }]).codes).toContain('subscriptionChargedAfterEnd');
    expect(audit([started, started], [{ period: 1 }]).codes).toContain('subscriptionStartedTwice');
  });

  it('given a charge without its transfer, or a transfer of another amount or with a fee, then it reports a mismatch', () => {
    expect(audit([started, renewed(2)], [{ period: 1 }]).codes).toEqual(['subscriptionChargeMismatch']);
    expect(audit([started], [{ period: 1, amountMlx: 499n }]).codes).toEqual(['subscriptionChargeMismatch']);
    expect(audit([started], [{ period: 1, feeMlx: 1000n }]).codes).toEqual(['subscriptionChargeMismatch']);
    expect(audit([started], [{ period: 1 }, { period: 2 }]).codes).toEqual(['subscriptionChargeMismatch']);
  });

  it('given a charge above the agreed price, then it reports it; a lower charge lowers the agreement; an accepted price raises it', () => {
    const accepted = (byUserId: string, priceMlx: string) => ({
      type: 'SubscriptionPriceAccepted',
      data: { subscriptionId: SUB, byUserId, previousPriceMlx: '500', priceMlx, acceptedAt: '2026-01-20T00:00:00.000Z' },
    });
    const t = (period: number, amountMlx: bigint) => ({ period, amountMlx });
    expect(audit([started, renewed(2, '900')], [t(1, 500n), t(2, 900n)]).codes).toEqual(['subscriptionChargedAboveAgreedPrice']);
    expect(audit([started, renewed(2, '400'), renewed(3, '500')], [t(1, 500n), t(2, 400n), t(3, 500n)]).codes).toEqual([
      'subscriptionChargedAboveAgreedPrice',
    ]);
    const sound = audit([started, accepted('subr', '900'), renewed(2, '900'), renewed(3, '800')], [t(1, 500n), t(2, 900n), t(3, 800n)]);
    expect(sound.codes).toEqual([]);
    expect(sound.figures.pricesAccepted).toBe(1);
    expect(audit([started, accepted('prov', '900'), renewed(2, '900')], [t(1, 500n), t(2, 900n)]).codes).toEqual([
      'subscriptionPriceAcceptedByOther',
      'subscriptionChargedAboveAgreedPrice',
    ]);
  });
});

describe('subscription audit of resumes (ADR 059)', () => {
  const resumed = (byUserId: string) => ({
    type: 'SubscriptionResumed',
    data: { subscriptionId: SUB, byUserId, resumedAt: '2026-01-20T00:00:00.000Z' },
  });
  const cancelled = {
    type: 'SubscriptionCancelled',
    data: {
      subscriptionId: SUB,
      by: 'subscriber',
      byUserId: 'subr',
      cancelledAt: '2026-01-10T00:00:00.000Z',
      endsAt: '2026-02-01T00:00:00.000Z',
    },
  };

  it('given the subscriber resumes before the end and the renewal follows, then it reports nothing', () => {
    expect(audit([started, cancelled, resumed('subr'), renewed(2)], [{ period: 1 }, { period: 2 }]).codes).toEqual([]);
  });

  it('given a resume by someone else or after the end, then it reports it', () => {
    expect(audit([started, cancelled, resumed('prov')], [{ period: 1 }]).codes).toEqual(['subscriptionResumedWrongly']);
    expect(audit([started, cancelled, ended, resumed('subr')], [{ period: 1 }]).codes).toEqual(['subscriptionResumedWrongly']);
  });
});

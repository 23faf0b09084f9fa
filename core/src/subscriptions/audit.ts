/**
 * The subscription rule of the ledger audit (ADR 037, run by core/src/audit/, ADR 067):
 *
 * - every transfer with a `subscriptionCharge` reference matches exactly one charge event
 *   (SubscriptionStarted or SubscriptionRenewed) of that subscription and period: same transfer id,
 *   payer = the subscriber, payee = the provider, amount = the charged price, fee 0; and every
 *   charge event names such a transfer (the transfer-claim auditor, configured here);
 * - a subscription lands on its own stream, starts once, and its periods are charged in order
 *   1, 2, 3, ... each exactly once (no period missed, none doubled);
 * - nothing is charged after the subscription ended;
 * - every charge is at most the price the subscriber agreed to for that period (ADR 044): the
 *   price of the first charge, then of each renewal, or the higher price the subscriber accepted
 *   (SubscriptionPriceAccepted, by the subscriber and no one else);
 * - a subscription is resumed (ADR 059) only by its subscriber and only before it ended, so a
 *   resume can never bring an ended subscription back to charging.
 *
 * Conservation needs nothing new: the charges are ordinary settled transfers between users.
 */
import type { AuditWhere, CapabilityAuditRule } from '../shared/audit-rule.js';
import { type SubscriptionChargeTransferReference, isSubscriptionChargeReference } from './transfer-reference.js';
import { SUBSCRIPTION_STREAM_PREFIX, subscriptionChargeTransferId, subscriptionStream, toSubscriptionEvent } from './events.js';

export type SubscriptionViolationCode =
  | 'malformedSubscriptionEvent'
  | 'subscriptionStreamMismatch'
  | 'subscriptionStartedTwice'
  | 'subscriptionPeriodOutOfOrder'
  | 'subscriptionChargedAfterEnd'
  | 'subscriptionChargeMismatch'
  | 'subscriptionChargedAboveAgreedPrice'
  | 'subscriptionPriceAcceptedByOther'
  | 'subscriptionResumedWrongly';

export interface SubscriptionFigures {
  subscriptions: number;
  charges: number;
  chargedMlx: bigint;
  /** Higher prices accepted by their subscribers. */
  pricesAccepted: number;
}

export const isSubscriptionStream = (streamId: string): boolean => streamId.startsWith(SUBSCRIPTION_STREAM_PREFIX);

interface Tracked {
  subscriberUserId: string;
  providerUserId: string;
  lastPeriod: number;
  ended: boolean;
  /** The most the next charge may be. */
  agreedPriceMlx: bigint;
}

interface Charge {
  subscriptionId: string;
  period: number;
  payerWalletId: string;
  payeeWalletId: string;
  amountMlx: bigint;
}

export const subscriptionAuditRule: CapabilityAuditRule<
  SubscriptionViolationCode,
  Charge,
  SubscriptionChargeTransferReference,
  SubscriptionFigures
> = {
  describe: (f, mlx) => [
    `subscriptions: ${f.subscriptions}, charged ${f.charges} periods (${mlx(f.chargedMlx)} from subscribers to providers), ${f.pricesAccepted} higher price(s) accepted`,
  ],
  readsRecord: (record) => isSubscriptionStream(record.streamId),
  transfers: {
    mismatch: 'subscriptionChargeMismatch',
    isOwnReference: isSubscriptionChargeReference,
    matches: (c, t) =>
      c.subscriptionId === t.reference.subscriptionId &&
      c.period === t.reference.period &&
      c.payerWalletId === t.payerWalletId &&
      c.payeeWalletId === t.payeeWalletId &&
      c.amountMlx === t.amountMlx &&
      t.feeMlx === 0n,
    unmatchedMessage: (transferId) => `subscription transfer ${transferId} matches no charge`,
    neverMadeMessage: (transferId, c) =>
      `subscription ${c.subscriptionId} period ${c.period} names transfer ${transferId}, which was never made`,
  },
  start(report, charges) {
    const subscriptions = new Map<string, Tracked>();
    const figures: SubscriptionFigures = { subscriptions: 0, charges: 0, chargedMlx: 0n, pricesAccepted: 0 };

    const recordCharge = (
      subscriptionId: string,
      tracked: Tracked,
      d: { period: number; priceMlx: string; transferId: string },
      where: AuditWhere,
    ) => {
      const w = { ...where, transferId: d.transferId };
      if (tracked.ended)
        report('subscriptionChargedAfterEnd', `subscription ${subscriptionId} charged period ${d.period} after it ended`, w);
      if (d.period !== tracked.lastPeriod + 1)
        report(
          'subscriptionPeriodOutOfOrder',
          `subscription ${subscriptionId} charged period ${d.period} after period ${tracked.lastPeriod}`,
          w,
        );
      tracked.lastPeriod = Math.max(tracked.lastPeriod, d.period);
      const priceMlx = BigInt(d.priceMlx);
      if (priceMlx > tracked.agreedPriceMlx)
        report(
          'subscriptionChargedAboveAgreedPrice',
          `subscription ${subscriptionId} period ${d.period} charged ${d.priceMlx} MLX, above the agreed ${tracked.agreedPriceMlx} MLX`,
          w,
        );
      // A lower charge is the new agreement; a higher one (reported) does not raise it.
      else tracked.agreedPriceMlx = priceMlx;
      if (d.transferId !== subscriptionChargeTransferId(subscriptionId, d.period))
        return report('subscriptionChargeMismatch', `subscription ${subscriptionId} period ${d.period} names transfer ${d.transferId}`, w);
      if (charges.isClaimed(d.transferId)) return report('subscriptionPeriodOutOfOrder', `transfer ${d.transferId} charged twice`, w);
      figures.charges += 1;
      figures.chargedMlx += BigInt(d.priceMlx);
      charges.claim(d.transferId, {
        subscriptionId,
        period: d.period,
        payerWalletId: tracked.subscriberUserId,
        payeeWalletId: tracked.providerUserId,
        amountMlx: BigInt(d.priceMlx),
      });
    };

    return {
      addRecord(record, where) {
        const event = toSubscriptionEvent(record);
        if (!event)
          return report(
            'malformedSubscriptionEvent',
            `${record.type} on ${record.streamId} is not a well-formed subscription event`,
            where,
          );
        const id = event.data.subscriptionId;
        if (record.streamId !== subscriptionStream(id))
          return report('subscriptionStreamMismatch', `subscription ${id} appended to ${record.streamId}`, where);
        const tracked = subscriptions.get(id);
        if (event.type === 'SubscriptionStarted') {
          if (tracked) return report('subscriptionStartedTwice', `subscription ${id} started more than once`, where);
          const fresh: Tracked = {
            subscriberUserId: event.data.subscriberUserId,
            providerUserId: event.data.providerUserId,
            lastPeriod: 0,
            ended: false,
            agreedPriceMlx: BigInt(event.data.priceMlx),
          };
          subscriptions.set(id, fresh);
          figures.subscriptions += 1;
          return recordCharge(id, fresh, event.data, where);
        }
        if (!tracked) return report('subscriptionStreamMismatch', `${event.type} of subscription ${id} before it started`, where);
        if (event.type === 'SubscriptionRenewed') recordCharge(id, tracked, event.data, where);
        else if (event.type === 'SubscriptionEnded') tracked.ended = true;
        else if (event.type === 'SubscriptionResumed') {
          if (event.data.byUserId !== tracked.subscriberUserId || tracked.ended)
            return report(
              'subscriptionResumedWrongly',
              `subscription ${id} was resumed by ${event.data.byUserId}${tracked.ended ? ' after it ended' : ''}`,
              where,
            );
        } else if (event.type === 'SubscriptionPriceAccepted') {
          if (event.data.byUserId !== tracked.subscriberUserId)
            return report('subscriptionPriceAcceptedByOther', `subscription ${id}: a price was accepted by ${event.data.byUserId}`, where);
          figures.pricesAccepted += 1;
          tracked.agreedPriceMlx = BigInt(event.data.priceMlx);
        }
      },
      figures: () => ({ ...figures }),
    };
  },
};

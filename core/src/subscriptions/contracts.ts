/**
 * The subscription calls' wire shapes (spec section 7 and issue 13): `POST /api/subscriptions/create`
 * takes `subscription_plan_id` (and, from Quern's confirmation dialog, the price the user agreed
 * to, so a price edited meanwhile is refused instead of charged); cancel and read take `id`;
 * accepting a higher price takes `id` and the `price` accepted (ADR 044).
 */
import { z } from 'zod';
import { nextCursorField } from '../plans/list-page.js';
import { planIdField, planPrice } from '../plans/contracts.js';
import { mlxToWire } from '../wallet/money.js';
import { type PlanPrice, pendingPriceMlx } from './price.js';
import { type SubscriptionState, openRenewal, subscriptionStatus } from './state.js';

export const subscribeInput = z.strictObject({
  subscription_plan_id: planIdField,
  expected_price: planPrice.optional(),
});
export type SubscribeInput = z.output<typeof subscribeInput>;

export const subscriptionIdInput = z.strictObject({
  id: z.string({ error: 'errors:subscriptionIdRequired' }).trim().min(1, { error: 'errors:subscriptionIdRequired' }).max(200),
});

/** Accepting a higher price names the price the subscriber saw: a different pending price is refused (ADR 044). */
export const acceptPriceInput = z.strictObject({
  id: subscriptionIdInput.shape.id,
  price: planPrice,
});
export type AcceptPriceInput = z.output<typeof acceptPriceInput>;

export const subscriptionChargeOutput = z.object({
  period: z.number().int(),
  amount: z.string(),
  charged_at: z.string(),
  paid_through: z.string(),
  transaction_id: z.string(),
});

export const subscriptionOutput = z.object({
  id: z.string(),
  object: z.literal('subscription'),
  plan_id: z.string(),
  plan_name: z.string(),
  provider_id: z.string(),
  provider_username: z
    .string()
    .optional()
    .meta({ description: "The plan's provider (the merchant) by username, so a subscription names who it pays (issue 25)." }),
  subscriber_id: z.string(),
  status: z.enum(['active', 'past_due', 'cancelled', 'ended']),
  price: z.string().meta({ description: 'MLX of the last charge, as decimal text.' }),
  agreed_price: z.string().meta({ description: 'The most a renewal charges: the price the subscriber agreed to, as decimal text.' }),
  pending_price: z
    .string()
    .nullable()
    .meta({ description: "The plan's higher price, waiting for the subscriber to accept it; null when none." }),
  currency: z.literal('mlx'),
  duration: z.literal('monthly'),
  started_at: z.string(),
  paid_through: z.string(),
  next_charge_at: z.string().nullable(),
  ends_at: z.string().nullable(),
  cancelled_by: z.string().nullable(),
  charges: z.array(subscriptionChargeOutput),
});
export type SubscriptionOutput = z.infer<typeof subscriptionOutput>;

/** The subscription as the calls answer it; `plan` (its current price) shows a pending increase. */
export function toSubscriptionOutput(state: SubscriptionState, plan: PlanPrice = { priceMlx: undefined }): SubscriptionOutput {
  const status = subscriptionStatus(state);
  const pending = pendingPriceMlx(state, plan);
  const open = openRenewal(state);
  const last = state.charges[state.charges.length - 1];
  return {
    id: state.subscriptionId,
    object: 'subscription',
    plan_id: state.planId,
    plan_name: state.planName,
    provider_id: state.providerUserId,
    subscriber_id: state.subscriberUserId,
    status,
    price: last?.priceMlx ?? '0',
    agreed_price: state.agreedPriceMlx,
    pending_price: pending === undefined ? null : mlxToWire(pending),
    currency: 'mlx',
    duration: 'monthly',
    started_at: state.startedAt,
    paid_through: state.paidThrough,
    next_charge_at: status === 'active' || status === 'past_due' ? (open?.dueAt.toISOString() ?? null) : null,
    ends_at: state.ended?.endedAt ?? state.cancellation?.endsAt ?? null,
    cancelled_by: state.cancellation?.by ?? state.ended?.reason ?? null,
    charges: state.charges.map((c) => ({
      period: c.period,
      amount: c.priceMlx,
      charged_at: c.chargedAt,
      paid_through: c.paidThrough,
      transaction_id: c.transferId,
    })),
  };
}

/** What Subscribe asks the user to confirm: the price, the period, and when the next charge falls. */
export const subscribeQuoteOutput = z.object({
  plan_id: z.string(),
  price: z.number().int(),
  currency: z.literal('mlx'),
  duration: z.literal('monthly'),
  charge_now: z.string(),
  next_charge_at: z.string(),
});
export type SubscribeQuoteOutput = z.infer<typeof subscribeQuoteOutput>;

export const subscribeOutput = z.object({ message: z.string(), content: subscriptionOutput });
export const subscriptionListOutput = z.object({ content: z.array(subscriptionOutput), next_cursor: nextCursorField });
export const subscriptionContentOutput = z.object({ content: subscriptionOutput });
export const cancelOutput = z.object({ message: z.string(), content: subscriptionOutput });

export const priceText = (mlx: bigint): string => mlxToWire(mlx);

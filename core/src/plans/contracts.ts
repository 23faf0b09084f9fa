/**
 * The plan calls' wire shapes (spec section 7, issue 13). Every field is required; the price is a
 * whole number of MLX, a JSON integer (a digits-only string is read the same way, for form posts);
 * the currency is 'mlx' and the duration 'monthly', the only ones available. Each refusal names
 * its field, so the form shows the message beside it.
 */
import { z } from 'zod';
import { listPageQueryShape, listPageShape, nextCursorField } from './list-page.js';
import { MLX_TOTAL_SUPPLY } from '../wallet/money.js';
import { AVAILABLE_PLAN_DURATIONS, PLAN_DURATIONS, PLAN_ID_PATTERN, type PlanDuration } from './events.js';
import type { PlanState } from './state.js';

export const PLAN_NAME_LENGTH_MAX = 100;
export const PLAN_DESCRIPTION_LENGTH_MAX = 2000;

const requiredText = (max: number, required: string, tooLong: string) =>
  z
    .string({ error: required })
    .transform((value) => value.trim())
    .pipe(z.string().min(1, { error: required }).max(max, { error: tooLong }));

/** Whole MLX from 1 to the total supply, as a bigint. */
export const planPrice = z
  .union([z.number({ error: 'errors:planPriceDigits' }), z.string({ error: 'errors:planPriceDigits' })], {
    error: 'errors:planPriceRequired',
  })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? (Number.isSafeInteger(value) ? String(value) : '') : value.trim();
    if (text === '' && typeof value === 'string') {
      ctx.addIssue({ code: 'custom', message: 'errors:planPriceRequired' });
      return z.NEVER;
    }
    if (!/^[0-9]{1,20}$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'errors:planPriceDigits' });
      return z.NEVER;
    }
    const mlx = BigInt(text);
    if (mlx < 1n) {
      ctx.addIssue({ code: 'custom', message: 'errors:planPricePositive' });
      return z.NEVER;
    }
    if (mlx > MLX_TOTAL_SUPPLY) {
      ctx.addIssue({ code: 'custom', message: 'errors:amountTooLarge' });
      return z.NEVER;
    }
    return mlx;
  })
  .meta({ description: 'Whole MLX per period, an integer.', example: 250000 });

export const planCurrency = z
  .string({ error: 'errors:planCurrencyRequired' })
  .transform((value, ctx) => {
    const currency = value.trim().toLowerCase();
    if (currency === '') ctx.addIssue({ code: 'custom', message: 'errors:planCurrencyRequired' });
    else if (currency !== 'mlx') ctx.addIssue({ code: 'custom', message: 'errors:planCurrencyUnavailable' });
    return 'mlx' as const;
  })
  .meta({ description: "Only 'mlx'." });

export const planDuration = z
  .string({ error: 'errors:planDurationRequired' })
  .transform((value, ctx): PlanDuration => {
    const duration = value.trim().toLowerCase();
    if (duration === '') ctx.addIssue({ code: 'custom', message: 'errors:planDurationRequired' });
    else if (!(PLAN_DURATIONS as readonly string[]).includes(duration))
      ctx.addIssue({ code: 'custom', message: 'errors:planDurationInvalid' });
    else if (!AVAILABLE_PLAN_DURATIONS.includes(duration as PlanDuration))
      ctx.addIssue({ code: 'custom', message: 'errors:planDurationUnavailable' });
    return 'monthly';
  })
  .meta({ description: "Only 'monthly' is available ('weekly' and 'yearly' are not yet)." });

const planTermsShape = {
  name: requiredText(PLAN_NAME_LENGTH_MAX, 'errors:planNameRequired', 'errors:planNameTooLong'),
  description: requiredText(PLAN_DESCRIPTION_LENGTH_MAX, 'errors:planDescriptionRequired', 'errors:planDescriptionTooLong'),
  price: planPrice,
  currency: planCurrency,
  duration: planDuration,
};

export const planCreateInput = z.strictObject(planTermsShape);
export type PlanCreateInput = z.output<typeof planCreateInput>;

/** A plan id as a caller sends it: any text; one that is not a plan's id answers 404, like an unknown one. */
export const planIdField = z
  .string({ error: 'errors:planIdRequired' })
  .trim()
  .min(1, { error: 'errors:planIdRequired' })
  .max(200, { error: 'errors:planNotFound' });

export const planUpdateInput = z.strictObject({ id: planIdField, ...planTermsShape });
export type PlanUpdateInput = z.output<typeof planUpdateInput>;

export const planIdInput = z.strictObject({ id: planIdField });
const userIdField = z.string({ error: 'errors:userIdRequired' }).trim().min(1, { error: 'errors:userIdRequired' }).max(200);
/** `GET /api/subscription-plans/all?user_id=&limit=&cursor=` (ADR 057 adds the page). */
export const userPlansQuery = z.strictObject({ user_id: userIdField, ...listPageQueryShape });
/** The same for tRPC (JSON types). */
export const userPlansInput = z.strictObject({ user_id: userIdField, ...listPageShape });
/** A plan's subscribers, a page at a time. */
export const planSubscribersInput = z.strictObject({ id: planIdField, ...listPageShape });

export const isPlanId = (id: string): boolean => PLAN_ID_PATTERN.test(id);

/** The spec's plan (section 3), plus the owner's username and the times, for the screens. */
export const planOutput = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  price: z.number().int(),
  currency: z.literal('mlx'),
  duration: z.enum(PLAN_DURATIONS),
  provider_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PlanOutput = z.infer<typeof planOutput>;

export const toPlanOutput = (plan: PlanState): PlanOutput => ({
  id: plan.planId,
  name: plan.terms.name,
  description: plan.terms.description,
  // Whole MLX never exceeds the supply (9e15 < 2^53), so the spec's integer is exact.
  price: Number(plan.terms.priceMlx),
  currency: plan.terms.currency,
  duration: plan.terms.duration,
  provider_id: plan.providerUserId,
  created_at: plan.createdAt,
  updated_at: plan.updatedAt,
});

export const planMessageOutput = z.object({ message: z.string(), id: z.string().optional() });
export type PlanMessageOutput = z.infer<typeof planMessageOutput>;
export const planContentOutput = z.object({ content: planOutput });
export const planListOutput = z.object({ content: z.array(planOutput), next_cursor: nextCursorField });
export const subscriberOutput = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  subscription_id: z.string(),
  status: z.string(),
});
export const subscriberListOutput = z.object({ content: z.array(subscriberOutput), next_cursor: nextCursorField });
export type SubscriberOutput = z.infer<typeof subscriberOutput>;

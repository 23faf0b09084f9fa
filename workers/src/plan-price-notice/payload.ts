/**
 * The price-change job's data: the plan, the revision of the PlanUpdated that changed its price
 * (one announcement per edit) and its log position (the read model of the plan's subscriptions
 * must have reached it), and the two prices as the edit recorded them.
 */
import { PLAN_ID_PATTERN } from '@quern/core/plans';
import { z } from 'zod';

export const PLAN_PRICE_NOTICE_QUEUE = 'plan-price-notice';
export const PLAN_PRICE_NOTICE_JOB_NAME = 'announce-plan-price-change';

export const planPriceNoticeJobId = (planId: string, planRevision: string): string => `plan-price-notice-${planId}-${planRevision}`;

const digits = z.string().regex(/^[0-9]{1,20}$/);
const mlx = z.string().regex(/^[1-9][0-9]{0,19}$/);

export const planPriceNoticePayload = z
  .object({ planId: z.string().regex(PLAN_ID_PATTERN), planRevision: digits, position: digits, previousPriceMlx: mlx, priceMlx: mlx })
  .strict();
export type PlanPriceNoticePayload = z.infer<typeof planPriceNoticePayload>;

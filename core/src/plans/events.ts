/**
 * Subscription plan events (issue 13, ADR 037). One stream per plan, `plan-<planId>`: created
 * once ('no_stream'), then edited and deleted under the revision the owner's edit was decided on,
 * so two edits racing cannot both win and a deleted plan is never edited again.
 */
import { z } from 'zod';

export const PLAN_STREAM_PREFIX = 'plan-';
export const planStream = (planId: string): string => `${PLAN_STREAM_PREFIX}${planId}`;

/** A plan id is a UUID (lower case); anything else names no plan. */
export const PLAN_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const PLAN_CURRENCIES = ['mlx'] as const;
export type PlanCurrency = (typeof PLAN_CURRENCIES)[number];
/** The spec's durations; only 'monthly' is available, the others are shown as unavailable. */
export const PLAN_DURATIONS = ['weekly', 'monthly', 'yearly'] as const;
export type PlanDuration = (typeof PLAN_DURATIONS)[number];
export const AVAILABLE_PLAN_DURATIONS: readonly PlanDuration[] = ['monthly'];

/**
 * What the owner writes: the same fields on create and on edit. Price is whole MLX, decimal text.
 * A type, not an interface, so the events' data is a plain record the event store port takes.
 */
export type PlanTerms = {
  name: string;
  description: string;
  priceMlx: string;
  currency: PlanCurrency;
  duration: PlanDuration;
};

export interface PlanCreated {
  type: 'PlanCreated';
  data: PlanTerms & { planId: string; providerUserId: string; createdAt: string };
}

export interface PlanUpdated {
  type: 'PlanUpdated';
  /** The terms after the edit, whole; `previousPriceMlx` is set when the price changed. */
  data: PlanTerms & { planId: string; updatedAt: string; previousPriceMlx?: string };
}

export interface PlanDeleted {
  type: 'PlanDeleted';
  /** The owner is repeated so a read model can drop the plan from the owner's list from this event alone. */
  data: { planId: string; providerUserId: string; deletedAt: string };
}

/**
 * Written by the price-change job once every subscription of the plan was told of the edit at
 * `planRevision` (each subscription records its own SubscriptionPriceChangeAnnounced first).
 */
export interface PlanPriceChangeAnnounced {
  type: 'PlanPriceChangeAnnounced';
  data: { planId: string; planRevision: string; subscriptions: number; announcedAt: string };
}

export type PlanEvent = PlanCreated | PlanUpdated | PlanDeleted | PlanPriceChangeAnnounced;

const text = (max: number) => z.string().min(1).max(max);
const mlx = z.string().regex(/^[1-9][0-9]{0,19}$/);
const time = z.string().min(1).max(40);
const terms = {
  name: text(200),
  description: text(4000),
  priceMlx: mlx,
  currency: z.enum(PLAN_CURRENCIES),
  duration: z.enum(PLAN_DURATIONS),
};
const planId = z.string().regex(PLAN_ID_PATTERN);

const schemas = {
  PlanCreated: z.object({ ...terms, planId, providerUserId: text(200), createdAt: time }),
  PlanUpdated: z.object({ ...terms, planId, updatedAt: time, previousPriceMlx: mlx.optional() }),
  PlanDeleted: z.object({ planId, providerUserId: text(200), deletedAt: time }),
  PlanPriceChangeAnnounced: z.object({
    planId,
    planRevision: z.string().regex(/^[0-9]{1,20}$/),
    subscriptions: z.number().int().min(0),
    announcedAt: time,
  }),
} as const;

export const planEventTypes = Object.keys(schemas) as PlanEvent['type'][];
export const isPlanEventType = (type: string): type is PlanEvent['type'] => Object.hasOwn(schemas, type);

/** A recorded event as a PlanEvent, or undefined when it is not one or has not its shape. */
export function toPlanEvent(recorded: { type: string; data: unknown }): PlanEvent | undefined {
  if (!isPlanEventType(recorded.type)) return undefined;
  const parsed = schemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as PlanEvent) : undefined;
}

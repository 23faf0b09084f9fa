/**
 * Subscription events (issue 13, ADR 037), on `subscription-<subscriptionId>`. The id is a digest
 * of plan, subscriber and generation (the n-th time this user subscribed to this plan), so the
 * stream is created with 'no_stream' in the same atomic append as the first charge: of any number
 * of racing subscribe requests exactly one charges. Each charge names its period, and its wallet
 * transfer id is the subscription's and the period's, so no period is ever charged twice.
 *
 * The open renewal of a subscription that has not ended is (period, attempt): the period after
 * the last one paid and the attempt after the failures recorded for it. The renewal job of that
 * pair ends with exactly one of SubscriptionRenewed, SubscriptionChargeFailed or SubscriptionEnded,
 * each naming the pair, which is how the dispatcher knows the job is done.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { z } from 'zod';
import { eventSchemaOf } from '../shared/command-handler.js';
import { PLAN_ID_PATTERN } from '../plans/events.js';

export const SUBSCRIPTION_STREAM_PREFIX = 'subscription-';
export const subscriptionStream = (subscriptionId: string): string => `${SUBSCRIPTION_STREAM_PREFIX}${subscriptionId}`;
export const SUBSCRIPTION_ID_PATTERN = /^sub_[0-9a-f]{24}$/;

export const subscriptionIdOf = (planId: string, subscriberUserId: string, generation: number): string =>
  `sub_${bytesToHex(sha256(utf8ToBytes(`${planId}\n${subscriberUserId}\n${generation}`))).slice(0, 24)}`;

/** The wallet transfer that pays one period. */
export const subscriptionChargeTransferId = (subscriptionId: string, period: number): string => `subscription-${subscriptionId}-${period}`;

/**
 * Why a subscription was cancelled. `priceNotAccepted`: the provider ended it at the end of its
 * paid period because its subscriber had not accepted the plan's higher price (ADR 044); the value
 * was added later, so every event recorded before it still reads.
 */
export type CancelledBy = 'subscriber' | 'provider' | 'unpaid' | 'planDeleted' | 'priceNotAccepted';
export const CANCELLED_BY: readonly CancelledBy[] = ['subscriber', 'provider', 'unpaid', 'planDeleted', 'priceNotAccepted'];

/** A charge that paid a period: the first on subscribing, the others on renewal. */
export type ChargeData = {
  subscriptionId: string;
  period: number;
  attempt: number;
  priceMlx: string;
  transferId: string;
  chargedAt: string;
  /** The end of the period this charge paid: the next charge is due then. */
  paidThrough: string;
  billingDay: number;
};

export type SubscriptionStarted = {
  type: 'SubscriptionStarted';
  data: ChargeData & { planId: string; providerUserId: string; subscriberUserId: string; generation: number; planName: string };
};

export type SubscriptionRenewed = {
  type: 'SubscriptionRenewed';
  data: ChargeData;
};

export type SubscriptionChargeFailed = {
  type: 'SubscriptionChargeFailed';
  data: {
    subscriptionId: string;
    period: number;
    attempt: number;
    priceMlx: string;
    reason: 'insufficientFunds';
    failedAt: string;
    nextAttemptAt: string;
  };
};

export type SubscriptionCancelled = {
  type: 'SubscriptionCancelled';
  data: { subscriptionId: string; by: CancelledBy; byUserId?: string; cancelledAt: string; endsAt: string };
};

export type SubscriptionEnded = {
  type: 'SubscriptionEnded';
  /** Names the open renewal (period, attempt) it closes. */
  data: { subscriptionId: string; period: number; attempt: number; reason: CancelledBy; endedAt: string };
};

export type SubscriptionPriceChangeAnnounced = {
  type: 'SubscriptionPriceChangeAnnounced';
  /** `planRevision` is the PlanUpdated's revision on the plan stream: one announcement per edit. */
  data: {
    subscriptionId: string;
    planRevision: string;
    previousPriceMlx: string;
    priceMlx: string;
    effectiveFrom: string;
    announcedAt: string;
  };
};

/**
 * The subscriber accepted the plan's higher price (ADR 044): renewals from the next one on may
 * charge up to `priceMlx` (the price the subscriber saw and sent), no longer only up to
 * `previousPriceMlx`, the price agreed before.
 */
export type SubscriptionPriceAccepted = {
  type: 'SubscriptionPriceAccepted';
  data: { subscriptionId: string; byUserId: string; previousPriceMlx: string; priceMlx: string; acceptedAt: string };
};

/**
 * The subscriber took their own cancellation back before the paid period ended (issue 25, ADR
 * 059): the subscription renews again, at the price agreed before.
 */
export type SubscriptionResumed = {
  type: 'SubscriptionResumed';
  data: { subscriptionId: string; byUserId: string; resumedAt: string };
};

export const SUBSCRIPTION_EMAIL_KINDS = [
  'receipt',
  'chargeFailed',
  'cancelledSubscriber',
  'newSubscriberProvider',
  'cancelledProvider',
  'priceChange',
] as const;
export type SubscriptionEmailKind = (typeof SUBSCRIPTION_EMAIL_KINDS)[number];

export type SubscriptionEmailSent = {
  type: 'SubscriptionEmailSent';
  /** `emailId` names which e-mail: its kind and the event it was for (subscriptionEmailId). */
  data: { subscriptionId: string; emailId: string; messageId: string; sentAt: string };
};

export type SubscriptionEvent =
  | SubscriptionStarted
  | SubscriptionRenewed
  | SubscriptionChargeFailed
  | SubscriptionCancelled
  | SubscriptionEnded
  | SubscriptionPriceChangeAnnounced
  | SubscriptionPriceAccepted
  | SubscriptionResumed
  | SubscriptionEmailSent;

/** One e-mail per kind and source event: `receipt-3` is period 3's receipt, `chargeFailed-3-2` its second failure. */
export const subscriptionEmailId = (kind: SubscriptionEmailKind, key: string): string => `${kind}-${key}`;

const id = z.string().regex(SUBSCRIPTION_ID_PATTERN);
const mlx = z.string().regex(/^[1-9][0-9]{0,19}$/);
const time = z.string().min(1).max(40);
const period = z.number().int().min(1).max(100_000);
const attempt = z.number().int().min(1).max(10);
const cancelledBy = z.enum(CANCELLED_BY as [CancelledBy, ...CancelledBy[]]);
const charge = {
  subscriptionId: id,
  period,
  attempt,
  priceMlx: mlx,
  transferId: z.string().min(1).max(128),
  chargedAt: time,
  paidThrough: time,
  billingDay: z.number().int().min(1).max(31),
};

const dataSchemas = {
  SubscriptionStarted: z.object({
    ...charge,
    planId: z.string().regex(PLAN_ID_PATTERN),
    providerUserId: z.string().min(1).max(200),
    subscriberUserId: z.string().min(1).max(200),
    generation: z.number().int().min(1).max(100_000),
    planName: z.string().min(1).max(200),
  }),
  SubscriptionRenewed: z.object(charge),
  SubscriptionChargeFailed: z.object({
    subscriptionId: id,
    period,
    attempt,
    priceMlx: mlx,
    reason: z.literal('insufficientFunds'),
    failedAt: time,
    nextAttemptAt: time,
  }),
  SubscriptionCancelled: z.object({
    subscriptionId: id,
    by: cancelledBy,
    byUserId: z.string().min(1).max(200).optional(),
    cancelledAt: time,
    endsAt: time,
  }),
  SubscriptionEnded: z.object({ subscriptionId: id, period, attempt, reason: cancelledBy, endedAt: time }),
  SubscriptionPriceChangeAnnounced: z.object({
    subscriptionId: id,
    planRevision: z.string().regex(/^[0-9]{1,20}$/),
    previousPriceMlx: mlx,
    priceMlx: mlx,
    effectiveFrom: time,
    announcedAt: time,
  }),
  SubscriptionPriceAccepted: z.object({
    subscriptionId: id,
    byUserId: z.string().min(1).max(200),
    previousPriceMlx: mlx,
    priceMlx: mlx,
    acceptedAt: time,
  }),
  SubscriptionResumed: z.object({
    subscriptionId: id,
    byUserId: z.string().min(1).max(200),
    resumedAt: time,
  }),
  SubscriptionEmailSent: z.object({
    subscriptionId: id,
    emailId: z.string().min(1).max(100),
    messageId: z.string().min(1).max(300),
    sentAt: time,
  }),
} as const;

/** One schema per event type, each parsing the whole event: what the stream model parses with. */
export const subscriptionEventSchemas = {
  SubscriptionStarted: eventSchemaOf('SubscriptionStarted', dataSchemas.SubscriptionStarted),
  SubscriptionRenewed: eventSchemaOf('SubscriptionRenewed', dataSchemas.SubscriptionRenewed),
  SubscriptionChargeFailed: eventSchemaOf('SubscriptionChargeFailed', dataSchemas.SubscriptionChargeFailed),
  SubscriptionCancelled: eventSchemaOf('SubscriptionCancelled', dataSchemas.SubscriptionCancelled),
  SubscriptionEnded: eventSchemaOf('SubscriptionEnded', dataSchemas.SubscriptionEnded),
  SubscriptionPriceChangeAnnounced: eventSchemaOf('SubscriptionPriceChangeAnnounced', dataSchemas.SubscriptionPriceChangeAnnounced),
  SubscriptionPriceAccepted: eventSchemaOf('SubscriptionPriceAccepted', dataSchemas.SubscriptionPriceAccepted),
  SubscriptionResumed: eventSchemaOf('SubscriptionResumed', dataSchemas.SubscriptionResumed),
  SubscriptionEmailSent: eventSchemaOf('SubscriptionEmailSent', dataSchemas.SubscriptionEmailSent),
} satisfies { [Type in SubscriptionEvent['type']]: z.ZodType<Extract<SubscriptionEvent, { type: Type }>> };

export const subscriptionEventTypes = Object.keys(subscriptionEventSchemas) as SubscriptionEvent['type'][];
export const isSubscriptionEventType = (type: string): type is SubscriptionEvent['type'] => Object.hasOwn(subscriptionEventSchemas, type);

/** A recorded event as a SubscriptionEvent, or undefined when it is not one or has not its shape. */
export function toSubscriptionEvent(recorded: { type: string; data: unknown }): SubscriptionEvent | undefined {
  if (!isSubscriptionEventType(recorded.type)) return undefined;
  const schema: z.ZodType<SubscriptionEvent> = subscriptionEventSchemas[recorded.type];
  const parsed = schema.safeParse({ type: recorded.type, data: recorded.data });
  return parsed.success ? parsed.data : undefined;
}

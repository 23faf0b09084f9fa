/**
 * Payment links' events (ADR 084): a reusable address `/pay/{slug}` of a merchant, each visit of
 * which makes a fresh invoice. A link is created with its slug and amount, and turned off and on;
 * it never moves money itself, so it has no transfer reference and no audit rule.
 */
import { z } from 'zod';
import { eventParser, eventSchemaOf } from '../shared/command-handler.js';

export const PAYMENT_LINK_STREAM_PREFIX = 'payment-link-';
export const paymentLinkStream = (linkId: string): string => `${PAYMENT_LINK_STREAM_PREFIX}${linkId}`;
/** `pl_` and 32 hex digits: derived from the merchant and the Idempotency-Key of its creation. */
export const PAYMENT_LINK_ID_PATTERN = /^pl_[0-9a-f]{32}$/;
/** 12 URL-safe characters (72 random bits), the part of `/pay/{slug}` a visitor sees. */
export const PAYMENT_LINK_SLUG_PATTERN = /^[A-Za-z0-9_-]{12}$/;
export const PAYMENT_LINK_CURRENCIES = ['MLX', 'USD'] as const;
export type PaymentLinkCurrency = (typeof PAYMENT_LINK_CURRENCIES)[number];

/**
 * What a visitor pays. Values are whole units of the currency as decimal text: whole MLX, or USD
 * cents. A fixed link asks `value`; an open one lets the visitor type it, within its bounds.
 */
export type PaymentLinkAmount =
  | { kind: 'fixed'; currency: PaymentLinkCurrency; value: string }
  | { kind: 'open'; currency: PaymentLinkCurrency; minimum?: string; maximum?: string };

export interface PaymentLinkCreated {
  type: 'PaymentLinkCreated';
  data: { linkId: string; merchantUserId: string; slug: string; amount: PaymentLinkAmount; description?: string; createdAt: string };
}

export interface PaymentLinkDeactivated {
  type: 'PaymentLinkDeactivated';
  data: { linkId: string; merchantUserId: string; deactivatedAt: string };
}

export interface PaymentLinkActivated {
  type: 'PaymentLinkActivated';
  data: { linkId: string; merchantUserId: string; activatedAt: string };
}

export type PaymentLinkEvent = PaymentLinkCreated | PaymentLinkDeactivated | PaymentLinkActivated;

const time = z.string().min(1).max(40);
const units = z.string().regex(/^[1-9][0-9]{0,19}$/);
const linkId = z.string().regex(PAYMENT_LINK_ID_PATTERN);
const merchantUserId = z.string().min(1).max(200);
const currency = z.enum(PAYMENT_LINK_CURRENCIES);

const amountSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fixed'), currency, value: units }),
  z.object({ kind: z.literal('open'), currency, minimum: units.optional(), maximum: units.optional() }),
]);

export const paymentLinkEventSchemas = {
  PaymentLinkCreated: eventSchemaOf(
    'PaymentLinkCreated',
    z.object({
      linkId,
      merchantUserId,
      slug: z.string().regex(PAYMENT_LINK_SLUG_PATTERN),
      amount: amountSchema,
      description: z.string().min(1).max(500).optional(),
      createdAt: time,
    }),
  ),
  PaymentLinkDeactivated: eventSchemaOf('PaymentLinkDeactivated', z.object({ linkId, merchantUserId, deactivatedAt: time })),
  PaymentLinkActivated: eventSchemaOf('PaymentLinkActivated', z.object({ linkId, merchantUserId, activatedAt: time })),
};

export const parsePaymentLinkEvent = eventParser<PaymentLinkEvent>(paymentLinkEventSchemas);

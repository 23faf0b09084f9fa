/**
 * The webhook event catalogue: the one place a webhook type is named. Each entry says which
 * recorded event reports it and the schema of the object its `data` carries; the list of types,
 * the payload's type and its schema are all derived from it. Adding a type is one entry here plus
 * its source in the fan-out (workers/src/webhook-fanout), which the compiler then asks for;
 * endpoints subscribed to "everything" get it at once. The subscription types (issue 13) go to the
 * plan's provider, with the subscription as it was right after the event.
 */
import type { z } from 'zod';
import { merchantOrderOutput } from '../checkout/merchant-order.js';
import { subscriptionOutput } from '../subscriptions/contracts.js';
import { webhookPayoutObject, webhookRefundObject } from './objects.js';

interface WebhookCatalogueEntry {
  /** The recorded event whose fan-out sends this type. */
  reportedBy: string;
  /** What the merchant learns, for the reference. */
  description: string;
  /** The object `data` carries, as the merchant API answers it. */
  data: z.ZodObject;
}

export const WEBHOOK_CATALOGUE = {
  'order.paid': { reportedBy: 'CheckoutPaid', description: 'A shopper paid a checkout order.', data: merchantOrderOutput },
  'refund.succeeded': { reportedBy: 'CheckoutRefunded', description: 'A paid order was refunded.', data: webhookRefundObject },
  'payout.completed': { reportedBy: 'TransferPosted', description: "A payout's transfer was posted.", data: webhookPayoutObject },
  'subscription.created': { reportedBy: 'SubscriptionStarted', description: 'A subscription started.', data: subscriptionOutput },
  'subscription.renewed': {
    reportedBy: 'SubscriptionRenewed',
    description: 'A subscription paid its next period.',
    data: subscriptionOutput,
  },
  'subscription.past_due': {
    reportedBy: 'SubscriptionChargeFailed',
    description: "A subscription's renewal charge failed.",
    data: subscriptionOutput,
  },
  'subscription.cancelled': { reportedBy: 'SubscriptionCancelled', description: 'A subscription was cancelled.', data: subscriptionOutput },
} as const satisfies Record<string, WebhookCatalogueEntry>;
type WebhookCatalogue = typeof WEBHOOK_CATALOGUE;

export type WebhookEventType = keyof WebhookCatalogue;
// Object.keys answers string[]; the keys of the catalogue are its types, in its order.
const catalogueTypes = Object.keys(WEBHOOK_CATALOGUE) as [WebhookEventType, ...WebhookEventType[]];
export const WEBHOOK_EVENT_TYPES: readonly [WebhookEventType, ...WebhookEventType[]] = catalogueTypes;

/** The types whose `data` is the subscription object (issue 13): they go to the plan's provider. */
export type SubscriptionWebhookType = {
  [K in WebhookEventType]: WebhookCatalogue[K]['data'] extends typeof subscriptionOutput ? K : never;
}[WebhookEventType];
export const SUBSCRIPTION_WEBHOOK_TYPES: readonly SubscriptionWebhookType[] = WEBHOOK_EVENT_TYPES.filter(
  (type): type is SubscriptionWebhookType => WEBHOOK_CATALOGUE[type].data === subscriptionOutput,
);

/** The object a webhook of `type` carries. */
export type WebhookObjectOf<K extends WebhookEventType> = z.infer<WebhookCatalogue[K]['data']>;

/** The recorded events that report a webhook type: each asks for a fan-out. */
export type WebhookReportingEventType = WebhookCatalogue[WebhookEventType]['reportedBy'];
export const WEBHOOK_REPORTING_EVENT_TYPES = [...new Set(WEBHOOK_EVENT_TYPES.map((type) => WEBHOOK_CATALOGUE[type].reportedBy))];

/** The webhook type a recorded event reports, or undefined when it reports none. */
export const webhookTypeReportedBy = (eventType: string): WebhookEventType | undefined =>
  WEBHOOK_EVENT_TYPES.find((type) => WEBHOOK_CATALOGUE[type].reportedBy === eventType);

export const isWebhookEventType = (value: string): value is WebhookEventType => Object.hasOwn(WEBHOOK_CATALOGUE, value);

/** An empty subscription list means every event type, including ones added later. */
export const endpointWants = (subscribed: readonly string[], type: WebhookEventType): boolean =>
  subscribed.length === 0 || subscribed.includes(type);

/**
 * The test event a merchant sends to one endpoint from API Direct (issue 25, ADR 060). It is not
 * in the catalogue: no endpoint subscribes to it and no fan-out sends it; it goes only where the
 * merchant asked, through the same delivery path, so it shows in that endpoint's delivery log.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'test.ping';
/** Every type a delivery may carry: the catalogue's and the test event. */
export const WEBHOOK_DELIVERY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT_TYPE] as const;
export type WebhookDeliveryEventType = (typeof WEBHOOK_DELIVERY_EVENT_TYPES)[number];

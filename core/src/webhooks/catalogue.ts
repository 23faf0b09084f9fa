/**
 * The webhook event catalogue: the one place a webhook type is named. Each entry says which
 * recorded events report it (and, where the same event also happens without reporting it, when it
 * does) and the schema of the object its `data` carries; the list of types, the payload's type and
 * its schema are all derived from it. Adding a type is one entry here plus its source in the
 * fan-out (workers/src/webhook-fanout), which the compiler then asks for; endpoints subscribed to
 * "everything" get it at once. The subscription types (issue 13) go to the plan's provider, with
 * the subscription as it was right after the event; the invoice types (issue 27) go to the
 * invoice's merchant, with the invoice as it was right after the event that changed its status.
 */
import type { z } from 'zod';
import { merchantOrderOutput } from '../checkout/merchant-order.js';
import { invoiceOutput } from '../invoices/contracts.js';
import { subscriptionOutput } from '../subscriptions/contracts.js';
import { webhookPayoutObject, webhookRefundObject } from './objects.js';
import { changesInvoiceStatusTo, isPayoutTransfer, type ReportedEvent } from './reported-when.js';

interface WebhookCatalogueEntry {
  /** The recorded events whose fan-out may send this type. */
  reportedBy: readonly string[];
  /**
   * When only some of those events report it, which ones: decided from the event alone
   * (reported-when.ts). At most one type of the catalogue may accept a given event.
   */
  reportsWhen?: (recorded: ReportedEvent) => boolean;
  /** What the merchant learns, for the reference. */
  description: string;
  /** The object `data` carries, as the merchant API answers it. */
  data: z.ZodObject;
}

export const WEBHOOK_CATALOGUE = {
  'order.paid': { reportedBy: ['CheckoutPaid'], description: 'A shopper paid a checkout order.', data: merchantOrderOutput },
  'refund.succeeded': { reportedBy: ['CheckoutRefunded'], description: 'A paid order was refunded.', data: webhookRefundObject },
  'payout.completed': {
    reportedBy: ['TransferPosted'],
    reportsWhen: isPayoutTransfer,
    description: "A payout's transfer was posted.",
    data: webhookPayoutObject,
  },
  'subscription.created': { reportedBy: ['SubscriptionStarted'], description: 'A subscription started.', data: subscriptionOutput },
  'subscription.renewed': {
    reportedBy: ['SubscriptionRenewed'],
    description: 'A subscription paid its next period.',
    data: subscriptionOutput,
  },
  'subscription.past_due': {
    reportedBy: ['SubscriptionChargeFailed'],
    description: "A subscription's renewal charge failed.",
    data: subscriptionOutput,
  },
  'subscription.cancelled': {
    reportedBy: ['SubscriptionCancelled'],
    description: 'A subscription was cancelled.',
    data: subscriptionOutput,
  },
  // Each invoice type is sent when the invoice's status becomes it, never again while it stays so.
  'invoice.processing': {
    reportedBy: ['InvoicePaymentSeen'],
    reportsWhen: changesInvoiceStatusTo('processing'),
    description: 'A payment to an invoice was seen on the network; it is not stable yet.',
    data: invoiceOutput,
  },
  'invoice.partially_paid': {
    // A part settled, or a payment in flight failed while a part was already paid.
    reportedBy: ['InvoicePaymentSettled', 'InvoicePaymentFailed'],
    reportsWhen: changesInvoiceStatusTo('partially_paid'),
    description: 'Part of an invoice is paid and stable; the rest is still missing.',
    data: invoiceOutput,
  },
  'invoice.paid': {
    reportedBy: ['InvoicePaymentSettled'],
    reportsWhen: changesInvoiceStatusTo('paid'),
    description: "Stable payments reached an invoice's amount (sent once, not again for an overpayment).",
    data: invoiceOutput,
  },
  'invoice.expired': {
    reportedBy: ['InvoiceExpired'],
    reportsWhen: changesInvoiceStatusTo('expired'),
    description: 'An invoice ran out of time before it was paid in full.',
    data: invoiceOutput,
  },
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

/** The types whose `data` is the invoice object (issue 27): they go to the invoice's merchant. */
export type InvoiceWebhookType = {
  [K in WebhookEventType]: WebhookCatalogue[K]['data'] extends typeof invoiceOutput ? K : never;
}[WebhookEventType];
export const INVOICE_WEBHOOK_TYPES: readonly InvoiceWebhookType[] = WEBHOOK_EVENT_TYPES.filter(
  (type): type is InvoiceWebhookType => WEBHOOK_CATALOGUE[type].data === invoiceOutput,
);

/** The object a webhook of `type` carries. */
export type WebhookObjectOf<K extends WebhookEventType> = z.infer<WebhookCatalogue[K]['data']>;

/** The recorded events that report a webhook type: each asks for a fan-out (when the type's condition holds). */
export type WebhookReportingEventType = WebhookCatalogue[WebhookEventType]['reportedBy'][number];
export const WEBHOOK_REPORTING_EVENT_TYPES: readonly WebhookReportingEventType[] = [
  ...new Set(WEBHOOK_EVENT_TYPES.flatMap((type) => WEBHOOK_CATALOGUE[type].reportedBy)),
];

const reports = (type: WebhookEventType, recorded: ReportedEvent): boolean => {
  const entry: WebhookCatalogueEntry = WEBHOOK_CATALOGUE[type];
  return entry.reportedBy.includes(recorded.type) && (entry.reportsWhen?.(recorded) ?? true);
};

/** The webhook type a recorded event reports, or undefined when it reports none (a posted send that is no payout, an invoice staying in its status). */
export const webhookTypeReportedBy = (recorded: ReportedEvent): WebhookEventType | undefined =>
  WEBHOOK_EVENT_TYPES.find((type) => reports(type, recorded));

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

/**
 * The events feed's types (issue 28, ADR 088): every type of the webhook catalogue, whose `data` is
 * what a webhook of that type carries, plus the changes a merchant makes to their webhook
 * endpoints and an invoice's refunds, which no webhook reports but which belong to the trail.
 * Which recorded event is which feed entry, and whose, is decided from the event alone, so the
 * read model that indexes them (projections/src/merchant-events) rebuilds the same in log order.
 */
import { isInvoiceEventType, toInvoiceEvent } from '../invoices/events.js';
import type { ReportedEvent } from '../webhooks/reported-when.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, webhookTypeReportedBy } from '../webhooks/catalogue.js';

/** Feed types no webhook carries, and the recorded event each stands for. */
export const FEED_ONLY_TYPES = {
  'webhook_endpoint.created': 'WebhookEndpointCreated',
  'webhook_endpoint.secret_rotated': 'WebhookEndpointSecretRotated',
  'webhook_endpoint.deleted': 'WebhookEndpointDeleted',
  'invoice.refund_created': 'InvoiceRefundCreated',
  'invoice.refund_claimed': 'InvoiceRefundClaimed',
  'invoice.refund_canceled': 'InvoiceRefundCanceled',
} as const;
export type FeedOnlyType = keyof typeof FEED_ONLY_TYPES;
export type FeedEventType = WebhookEventType | FeedOnlyType;

const feedOnlyTypes = Object.keys(FEED_ONLY_TYPES) as FeedOnlyType[];
/** Every feed type: the catalogue's in its order, then the feed's own. */
export const FEED_EVENT_TYPES: readonly [FeedEventType, ...FeedEventType[]] = [...WEBHOOK_EVENT_TYPES, ...feedOnlyTypes];

export const isFeedEventType = (value: string): value is FeedEventType => (FEED_EVENT_TYPES as readonly string[]).includes(value);
export const isFeedOnlyType = (type: FeedEventType): type is FeedOnlyType => Object.hasOwn(FEED_ONLY_TYPES, type);

const feedOnlyTypeByEvent = new Map<string, FeedOnlyType>(feedOnlyTypes.map((type) => [FEED_ONLY_TYPES[type], type]));

/**
 * Whose an entry is. Most events name their merchant; a subscription's renewal, failed charge and
 * cancellation name only the subscription, whose provider its SubscriptionStarted named.
 */
export type FeedOwner = { merchantUserId: string } | { subscriptionId: string };

export interface FeedEntry {
  type: FeedEventType;
  owner: FeedOwner;
}

const textOf = (data: Record<string, unknown>, field: string): string | undefined => {
  const value = data[field];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

/** The merchant of a catalogue event, as the event names it (the fan-out's readers agree). */
function ownerOfReported(type: WebhookEventType, recorded: ReportedEvent): FeedOwner | undefined {
  const { data } = recorded;
  if (type === 'payout.completed') {
    // A payout's transfer is posted on the merchant's own wallet stream, whose wallet id is the merchant's user id.
    const walletId = textOf(data, 'walletId');
    return walletId === undefined ? undefined : { merchantUserId: walletId };
  }
  if (type.startsWith('subscription.')) {
    const provider = textOf(data, 'providerUserId');
    if (provider !== undefined) return { merchantUserId: provider };
    const subscriptionId = textOf(data, 'subscriptionId');
    return subscriptionId === undefined ? undefined : { subscriptionId };
  }
  const merchantUserId = textOf(data, 'merchantUserId');
  return merchantUserId === undefined ? undefined : { merchantUserId };
}

/** The feed entry a recorded event makes, or undefined when it is none (or does not say whose it is). */
export function feedEntryOf(recorded: ReportedEvent): FeedEntry | undefined {
  const reported = webhookTypeReportedBy(recorded);
  if (reported !== undefined) {
    const owner = ownerOfReported(reported, recorded);
    return owner === undefined ? undefined : { type: reported, owner };
  }
  const type = feedOnlyTypeByEvent.get(recorded.type);
  if (type === undefined) return undefined;
  // An invoice refund is an entry only when it reads as one: its merchant is in every invoice event.
  if (isInvoiceEventType(recorded.type) && toInvoiceEvent(recorded) === undefined) return undefined;
  const merchantUserId = textOf(recorded.data, 'merchantUserId');
  return merchantUserId === undefined ? undefined : { type, owner: { merchantUserId } };
}

/** The provider a SubscriptionStarted names, which the later events of that subscription belong to. */
export function subscriptionProviderOf(recorded: ReportedEvent): { subscriptionId: string; providerUserId: string } | undefined {
  if (recorded.type !== 'SubscriptionStarted') return undefined;
  const subscriptionId = textOf(recorded.data, 'subscriptionId');
  const providerUserId = textOf(recorded.data, 'providerUserId');
  return subscriptionId === undefined || providerUserId === undefined ? undefined : { subscriptionId, providerUserId };
}

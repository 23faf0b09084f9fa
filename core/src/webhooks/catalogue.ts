/**
 * The webhook event catalogue: the event types a merchant may subscribe an endpoint to. Adding a
 * type is one entry here plus its source rule in the fan-out (workers/src/webhook-fanout);
 * endpoints subscribed to "everything" get it at once. The subscription types (issue 13) go to the
 * plan's provider, with the subscription as it was right after the event.
 */
/** The subscription events (issue 13): `data` is the subscription object as the subscriptions API answers it. */
export const SUBSCRIPTION_WEBHOOK_TYPES = [
  'subscription.created',
  'subscription.renewed',
  'subscription.past_due',
  'subscription.cancelled',
] as const;
export type SubscriptionWebhookType = (typeof SUBSCRIPTION_WEBHOOK_TYPES)[number];

export const WEBHOOK_EVENT_TYPES = ['order.paid', 'refund.succeeded', 'payout.completed', ...SUBSCRIPTION_WEBHOOK_TYPES] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

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

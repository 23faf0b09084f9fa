/** Key names of the webhooks read model (all under rm:, so a rebuild finds them). */

/** Sorted set per endpoint: delivery id -> log position of its WebhookDeliveryScheduled. */
export const webhookDeliveriesKey = (endpointId: string): string => `rm:webhooks:deliveries:${endpointId}`;

/**
 * What a source of a webhook reads from the log: the merchant it goes to, the object it carries,
 * and when it happened. Each catalogue type has one reader (sources.ts); the fan-out job adds the
 * type and the event's place in the log.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import type { WebhookEventType, WebhookObjectOf, WebhookSource } from '@quern/core/webhooks';

export interface WebhookReport<K extends WebhookEventType> {
  merchantUserId: string;
  data: WebhookObjectOf<K>;
  occurredAt: string;
  payout?: WebhookSource['payout'];
}

/** What a reader may use: the log, and where people reach Quern (an invoice's hosted page is under it). */
export interface WebhookReportDeps {
  store: EventStore;
  /** PUBLIC_URL without a trailing slash, as the e-mail jobs have it. */
  publicUrl: string;
}

/** Reads the report of one recorded event, or undefined when this event reports nothing (not a payout's transfer). */
export type WebhookReportReader<K extends WebhookEventType> = (
  deps: WebhookReportDeps,
  recorded: RecordedEvent,
) => Promise<WebhookReport<K> | undefined>;

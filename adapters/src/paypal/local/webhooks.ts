/**
 * Webhook delivery as PayPal does it: a JSON event envelope POSTed to the listener with the
 * PAYPAL-TRANSMISSION-* headers, signed RSA-SHA256 over
 * `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(body)}` (../webhook-signature.ts).
 *
 * The body sent is exactly `JSON.stringify(event)`. The verify endpoint recomputes the CRC over
 * `JSON.stringify(webhook_event)`, so a receiver that passes `JSON.parse(rawBody)` as
 * webhook_event reproduces the bytes that were signed (see ADR 024).
 *
 * Delivery never blocks the request that caused it, and a listener answering non-2xx (or not
 * answering) is retried with back-off a bounded number of times, then dropped, as PayPal
 * eventually gives up too.
 */
import { randomUUID } from 'node:crypto';
import { payPalTime } from './state.js';
import { signatureBaseString, signWebhook, WEBHOOK_AUTH_ALGO } from '../webhook-signature.js';
import { webhookEventId } from './ids.js';

export type WebhookEventType = 'PAYMENT.CAPTURE.COMPLETED' | 'PAYMENT.CAPTURE.REFUNDED' | 'PAYMENT.CAPTURE.REVERSED';

export interface WebhookEvent {
  id: string;
  event_version: '1.0';
  create_time: string;
  resource_type: 'capture' | 'refund';
  resource_version: '2.0';
  event_type: WebhookEventType;
  summary: string;
  resource: Record<string, unknown>;
  links: Array<{ href: string; rel: string; method: string }>;
}

/** Between attempts; PayPal spaces its retries out over days, this keeps local runs short. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];
const DELIVERY_TIMEOUT_MS = 10_000;

export interface WebhookSenderOptions {
  /** Where events go; a function when the listener's address is known only once it listens. */
  webhookUrl: string | (() => string);
  webhookId: string;
  certUrl: string;
  publicBaseUrl: string;
  privateKeyPem: string;
  clock: () => Date;
  retryDelaysMs?: number[];
}

export class WebhookSender {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private closed = false;

  constructor(private readonly options: WebhookSenderOptions) {}

  /** Builds the event now (its time is the event's time) and delivers it in the background. */
  send(eventType: WebhookEventType, resourceType: 'capture' | 'refund', summary: string, resource: Record<string, unknown>): WebhookEvent {
    const id = webhookEventId();
    const event: WebhookEvent = {
      id,
      event_version: '1.0',
      create_time: payPalTime(this.options.clock()),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: eventType,
      summary,
      resource,
      links: [{ href: `${this.options.publicBaseUrl}/v1/notifications/webhooks-events/${id}`, rel: 'self', method: 'GET' }],
    };
    const body = JSON.stringify(event);
    const transmissionId = randomUUID();
    this.schedule(body, transmissionId, 0, 0);
    return event;
  }

  private schedule(body: string, transmissionId: string, attempt: number, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const delivery = this.attempt(body, transmissionId, attempt).finally(() => this.inFlight.delete(delivery));
      this.inFlight.add(delivery);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private async attempt(body: string, transmissionId: string, attempt: number): Promise<void> {
    // Each attempt is a new transmission time (and signature), as PayPal's retries are.
    const transmissionTime = this.options.clock().toISOString();
    const signature = signWebhook(
      signatureBaseString({ transmissionId, transmissionTime, webhookId: this.options.webhookId, rawBody: body }),
      this.options.privateKeyPem,
    );
    let delivered = false;
    try {
      const response = await fetch(typeof this.options.webhookUrl === 'function' ? this.options.webhookUrl() : this.options.webhookUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'PAYPAL-TRANSMISSION-ID': transmissionId,
          'PAYPAL-TRANSMISSION-TIME': transmissionTime,
          'PAYPAL-TRANSMISSION-SIG': signature,
          'PAYPAL-CERT-URL': this.options.certUrl,
          'PAYPAL-AUTH-ALGO': WEBHOOK_AUTH_ALGO,
        },
        body,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(DELIVERY_TIMEOUT_MS)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      delivered = response.ok;
    } catch {
      delivered = false; // unreachable listener: same as a non-2xx answer
    }
    const delays = this.options.retryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS;
    if (!delivered && attempt < delays.length) this.schedule(body, transmissionId, attempt + 1, delays[attempt]!);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
  }
}

/**
 * The webhook fan-out job (ADR 035): one source event (a checkout paid, a refund, a payout's
 * transfer posted, a subscription's start, renewal, failed charge or cancellation, an invoice's
 * change of status) becomes one delivery per endpoint of its merchant that wants that type and
 * existed before the event. Idempotent through the log: the fan-out's marker stream and the
 * delivery streams are opened with 'no_stream' in one append, so a second run appends nothing.
 */
import type { Clock, QuernMode, RecordedEvent } from '@quern/core';
import {
  type WebhookData,
  type WebhookEventType,
  type WebhookSource,
  fanOutWebhook,
  WebhookBodyTooLargeError,
  webhookTypeReportedBy,
} from '@quern/core/webhooks';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import { webhookFanOutPayload } from './payload.js';
import type { WebhookReportDeps } from './source.js';
import { WEBHOOK_REPORT_READERS } from './sources.js';

export interface WebhookFanOutDeps extends WebhookReportDeps {
  clock: Clock;
  /** QUERN_MODE: each body's `livemode` (ADR 050). */
  mode: QuernMode;
}

async function webhookSourceOfType<K extends WebhookEventType>(
  type: K,
  deps: WebhookReportDeps,
  recorded: RecordedEvent,
): Promise<WebhookSource | undefined> {
  const report = await WEBHOOK_REPORT_READERS[type](deps, recorded);
  if (!report) return undefined;
  const { data, ...rest } = report;
  // The reader of type K returns K's object; TypeScript cannot follow K into the union, so it is told.
  const webhook = { type, data } as WebhookData;
  return { event: { streamId: recorded.streamId, revision: recorded.revision, position: recorded.position }, webhook, ...rest };
}

/** The webhook a source event stands for, as the catalogue names it, or undefined when it reports nothing (not a payout's transfer, no change of an invoice's status). */
export async function webhookSourceOf(deps: WebhookReportDeps, recorded: RecordedEvent): Promise<WebhookSource | undefined> {
  const type = webhookTypeReportedBy(recorded);
  return type === undefined ? undefined : webhookSourceOfType(type, deps, recorded);
}

export async function fanOutWebhookJob(data: unknown, deps: WebhookFanOutDeps): Promise<{ deliveries: number }> {
  const payload = parsePayload(webhookFanOutPayload, data);
  const [recorded] = await deps.store.readStream(payload.streamId, { fromRevision: BigInt(payload.revision), maxCount: 1 });
  if (!recorded || recorded.revision !== BigInt(payload.revision))
    throw new UnrecoverableError(`No event at ${payload.streamId}@${payload.revision}`);
  const source = await webhookSourceOf(deps, recorded);
  if (!source) return { deliveries: 0 };
  try {
    return { deliveries: (await fanOutWebhook(deps, source)).length };
  } catch (error) {
    // The same event always builds the same body: running again cannot make it shorter.
    if (error instanceof WebhookBodyTooLargeError)
      throw new UnrecoverableError(`${error.message} (${payload.streamId}@${payload.revision})`);
    throw error;
  }
}

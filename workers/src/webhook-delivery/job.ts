/**
 * The webhook delivery job (ADR 035): one run of one delivery. The log holds its progress: the
 * attempts made so far decide whether the next is due now or later, so a retry, a stalled
 * re-run or a job re-derived after a Redis loss resumes the schedule where it was. Between
 * attempts the job waits in BullMQ's delayed set (runAgainAt), spending no BullMQ attempt; those
 * are kept for failures of Quern itself (the log unreachable). At least once: a crash between
 * sending and recording sends again, with the same webhook-id.
 */
import { performance } from 'node:perf_hooks';
import type { Clock, EventStore, Logger } from '@quern/core';
import {
  abandonWebhookRun,
  attemptsOf,
  loadWebhookDelivery,
  loadWebhookEndpoints,
  nextAttemptDueMs,
  recordWebhookAttempt,
  deliveryBodyOf,
  signingSecrets,
} from '@quern/core/webhooks';
import { ERASED } from '@quern/core/personal-data';
import type { WebhookAttemptInput, WebhookAttemptResult } from '@quern/adapters/webhooks';
import { UnrecoverableError } from 'bullmq';
import { parsePayload } from '../job/parse-payload.js';
import type { ResumableJob } from '../job/resumable.js';
import { webhookDeliveryPayload } from './payload.js';

export interface WebhookDeliveryDeps {
  store: EventStore;
  clock: Clock;
  logger: Logger;
  send(input: WebhookAttemptInput): Promise<WebhookAttemptResult>;
  /** Pauses before each retry (DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS). */
  retryScheduleMs: readonly number[];
  timeoutMs: number;
  allowPrivateNetworks: boolean;
  /** Told how each run of the job ended, for the metrics (quern_webhook_deliveries_total). */
  onOutcome?: (outcome: WebhookDeliveryOutcomeLabel) => void;
}

/**
 * What an operator counts: delivered (a 2xx), retried (an attempt failed, another is scheduled),
 * given_up (the last attempt failed, or the schedule ran out), abandoned (the endpoint was
 * deleted, or its secret erased with the merchant's account), failed (Quern itself could not
 * run the attempt, e.g. the log was unreachable; BullMQ runs the job again). Runs that only find their attempt not yet due are not counted.
 */
export type WebhookDeliveryOutcomeLabel = 'delivered' | 'retried' | 'given_up' | 'abandoned' | 'failed';

export type WebhookDeliveryOutcome = 'delivered' | 'failed' | 'retrying' | 'already-ended' | 'endpoint-deleted';

export async function deliverWebhook(job: ResumableJob, deps: WebhookDeliveryDeps): Promise<WebhookDeliveryOutcome> {
  const { deliveryId, run } = parsePayload(webhookDeliveryPayload, job.data);
  const { state, revision } = await loadWebhookDelivery(deps.store, deliveryId);
  const scheduled = state.scheduled;
  const current = state.runs.find((r) => r.run === run);
  // The job comes from this stream's own events; without them no retry can help.
  if (!scheduled || !current) throw new UnrecoverableError(`Delivery ${deliveryId} has no run ${run}`);
  if (current.outcome) return 'already-ended';

  const endpoints = (await loadWebhookEndpoints(deps.store, scheduled.merchantUserId)).state.endpoints;
  const endpoint = endpoints.find((e) => e.endpointId === scheduled.endpointId);
  // Sealed with the merchant's key, the secret reads as ERASED once the account is deleted:
  // nothing can be signed, so the run ends as for a deleted endpoint.
  if (!endpoint || endpoint.deletedAt !== undefined || endpoint.secret === ERASED) {
    await abandonWebhookRun(deps, revision, { deliveryId, run, reason: 'endpoint_deleted' });
    deps.onOutcome?.('abandoned');
    return 'endpoint-deleted';
  }

  const made = current.attempts.length;
  const last = current.attempts.at(-1);
  const dueMs = nextAttemptDueMs(deps.retryScheduleMs, made, last ? Date.parse(last.startedAt) : undefined);
  if (dueMs === undefined) {
    // Only when the schedule was shortened while the run was retrying: it has had its attempts.
    await abandonWebhookRun(deps, revision, { deliveryId, run, reason: 'attempts_exhausted' });
    deps.onOutcome?.('given_up');
    return 'failed';
  }
  if (dueMs > deps.clock.now().getTime()) return job.runAgainAt(dueMs);

  const startedAt = deps.clock.now();
  // The replaced secret signs beside the current one for a day after a rotation (ADR 056).
  // The current secret is not ERASED (checked above), so the list is never empty.
  const secrets = signingSecrets(endpoint, startedAt).filter((s) => s !== ERASED) as [string, ...string[]];
  const t0 = performance.now();
  const result = await deps.send({
    url: endpoint.url,
    secrets,
    webhookId: deliveryId,
    body: deliveryBodyOf(scheduled),
    at: startedAt,
    timeoutMs: deps.timeoutMs,
    allowPrivateNetworks: deps.allowPrivateNetworks,
  });
  const durationMs = performance.now() - t0;
  const lastAttempt = made + 1 >= attemptsOf(deps.retryScheduleMs);
  await recordWebhookAttempt(deps, revision, { deliveryId, run, attempt: made + 1, startedAt, durationMs, ...result, lastAttempt });
  if (result.delivered) {
    deps.onOutcome?.('delivered');
    return 'delivered';
  }
  if (lastAttempt) {
    deps.onOutcome?.('given_up');
    return 'failed';
  }
  deps.onOutcome?.('retried');
  deps.logger.info(`[webhooks] ${deliveryId} run ${run} attempt ${made + 1} failed (${result.error ?? result.statusCode}); retrying`);
  return job.runAgainAt(startedAt.getTime() + (deps.retryScheduleMs[made] as number));
}

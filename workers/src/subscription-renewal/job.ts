/**
 * The renewal job (ADR 037): decides one (period, attempt) of a subscription through core's
 * runRenewal, which is idempotent on the subscription stream (a pair already decided is 'stale').
 * Before its due time it does not hold a worker: it goes back to BullMQ's delayed set until then.
 * The wait is measured on the workers' clock (tests move it), turned into a wall-clock instant.
 */
import { type RenewalOutcome, runRenewal, type SubscriptionDeps } from '@quern/core/subscriptions';
import { parsePayload } from '../job/parse-payload.js';
import type { ResumableJob } from '../job/resumable.js';
import { subscriptionRenewalPayload } from './payload.js';

/** What BullMQ keeps as the job's return value: JSON, so the log position is decimal text. */
export type RenewalJobResult =
  | { outcome: 'stale' }
  | { outcome: 'renewed'; period: number; position: string }
  | { outcome: 'failed'; nextAttemptAt: string }
  | { outcome: 'ended'; reason: string };

function asJobResult(result: Exclude<RenewalOutcome, { outcome: 'notDue' }>): RenewalJobResult {
  switch (result.outcome) {
    case 'renewed':
      return { outcome: 'renewed', period: result.period, position: result.position.toString() };
    case 'failed':
      return { outcome: 'failed', nextAttemptAt: result.nextAttemptAt.toISOString() };
    default:
      return result;
  }
}

export async function renewSubscription(job: ResumableJob, deps: SubscriptionDeps): Promise<RenewalJobResult> {
  const payload = parsePayload(subscriptionRenewalPayload, job.data);
  const result = await runRenewal(deps, payload);
  if (result.outcome === 'notDue') return job.runAgainAt(Date.now() + Math.max(0, result.dueAt.getTime() - deps.clock.now().getTime()));
  return asJobResult(result);
}

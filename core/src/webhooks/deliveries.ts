/**
 * A delivery's state, folded from its stream: what to send, and its runs (run 0 is the first
 * delivery, each redelivery adds one), each with its attempts and its end (succeeded or failed).
 * At most one run is open at a time: a redelivery is refused while one is (decideRedelivery, decider.ts).
 */
import { assertNever } from '../shared/assert.js';
import type { WebhookDeliveryAttempted, WebhookDeliveryEvent, WebhookDeliveryScheduled } from './events.js';

export interface WebhookAttempt {
  run: number;
  attempt: number;
  startedAt: string;
  durationMs: number;
  statusCode?: number;
  error?: string;
  delivered: boolean;
}

export interface WebhookRun {
  run: number;
  requestedAt: string;
  attempts: WebhookAttempt[];
  outcome?: 'succeeded' | 'failed';
  endedAt?: string;
}

export interface WebhookDeliveryState {
  scheduled?: WebhookDeliveryScheduled['data'];
  runs: WebhookRun[];
}

export const emptyWebhookDelivery = (): WebhookDeliveryState => ({ runs: [] });

const updateRun = (state: WebhookDeliveryState, run: number, change: (r: WebhookRun) => WebhookRun): WebhookDeliveryState => ({
  ...state,
  runs: state.runs.map((r) => (r.run === run ? change(r) : r)),
});

const attemptOf = (data: WebhookDeliveryAttempted['data']): WebhookAttempt => {
  const { run, attempt, startedAt, durationMs, statusCode, error, delivered } = data;
  return {
    run,
    attempt,
    startedAt,
    durationMs,
    delivered,
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(error ? { error } : {}),
  };
};

export function evolveWebhookDelivery(state: WebhookDeliveryState, event: WebhookDeliveryEvent): WebhookDeliveryState {
  switch (event.type) {
    case 'WebhookDeliveryScheduled':
      return { scheduled: event.data, runs: [{ run: 0, requestedAt: event.data.scheduledAt, attempts: [] }] };
    case 'WebhookRedeliveryRequested':
      return { ...state, runs: [...state.runs, { run: event.data.run, requestedAt: event.data.requestedAt, attempts: [] }] };
    case 'WebhookDeliveryAttempted':
      return updateRun(state, event.data.run, (r) => ({ ...r, attempts: [...r.attempts, attemptOf(event.data)] }));
    case 'WebhookDeliverySucceeded':
      return updateRun(state, event.data.run, (r) => ({ ...r, outcome: 'succeeded', endedAt: event.data.deliveredAt }));
    case 'WebhookDeliveryFailed':
      return updateRun(state, event.data.run, (r) => ({ ...r, outcome: 'failed', endedAt: event.data.failedAt }));
    default:
      return assertNever(event);
  }
}

export const openRun = (state: WebhookDeliveryState): WebhookRun | undefined => state.runs.find((r) => r.outcome === undefined);

/** 'pending' while a run is open, else how the last run ended. */
export function deliveryStatus(state: WebhookDeliveryState): 'pending' | 'delivered' | 'failed' {
  if (openRun(state)) return 'pending';
  return state.runs.at(-1)?.outcome === 'succeeded' ? 'delivered' : 'failed';
}

/** A bound on redeliveries of one delivery, so one stream stays small. */
export const WEBHOOK_REDELIVERIES_MAX = 20;

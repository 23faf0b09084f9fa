/**
 * Appends to the log, measured: a decorator around the store the composition root opens, so
 * every append of this process (api, workers, the ledger's start-up) is counted without the
 * domain knowing. Reads are not measured: the projection lag says whether the log keeps up.
 */
import { type EventStore, WrongExpectedRevisionError } from '@quern/core';
import { Counter, Histogram, type Registry } from 'prom-client';

/** How an append ended: recorded, refused by the optimistic check (a normal race), or failed. */
export type AppendOutcome = 'ok' | 'conflict' | 'error';

export const appendOutcomeOf = (error: unknown): AppendOutcome => (error instanceof WrongExpectedRevisionError ? 'conflict' : 'error');

/** SQLite appends take about a millisecond; KurrentDB's cross the network. */
const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

export interface AppendMetrics {
  observe(outcome: AppendOutcome, events: number, seconds: number): void;
}

export function createAppendMetrics(registry: Registry): AppendMetrics {
  const appends = new Counter({
    name: 'quern_event_store_appends_total',
    help: 'Append calls to the event log (one call may write several streams atomically), by outcome: ok, conflict (wrong expected revision) or error.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const events = new Counter({
    name: 'quern_event_store_appended_events_total',
    help: 'Events written to the log by successful appends.',
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'quern_event_store_append_duration_seconds',
    help: 'Time an append call took until durable (or refused), by outcome.',
    labelNames: ['outcome'] as const,
    buckets: APPEND_BUCKETS,
    registers: [registry],
  });
  // Zero series from the start, so a rate() over a quiet process is 0 rather than absent.
  for (const outcome of ['ok', 'conflict', 'error'] as const) appends.inc({ outcome }, 0);
  return {
    observe(outcome, count, seconds) {
      appends.inc({ outcome });
      duration.observe({ outcome }, seconds);
      if (outcome === 'ok') events.inc(count);
    },
  };
}

/**
 * The same store with append and appendToStreams measured. The store is a plain object of
 * functions (openEventStore's), so copying it keeps every other member (the personal-data vault).
 */
export function withAppendMetrics<S extends EventStore>(store: S, metrics: AppendMetrics): S {
  async function measured<T>(events: number, append: () => Promise<T>): Promise<T> {
    const start = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - start) / 1e9;
    try {
      const result = await append();
      metrics.observe('ok', events, seconds());
      return result;
    } catch (error) {
      metrics.observe(appendOutcomeOf(error), events, seconds());
      throw error;
    }
  }
  return {
    ...store,
    append: (streamId, events, expectedRevision) => measured(events.length, () => store.append(streamId, events, expectedRevision)),
    appendToStreams: (appends) =>
      measured(
        appends.reduce((sum, a) => sum + a.events.length, 0),
        () => store.appendToStreams(appends),
      ),
  };
}

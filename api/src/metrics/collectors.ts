/**
 * Gauges read on each scrape (nothing polls between scrapes): the projections' lag behind the
 * log, BullMQ's job counts per queue, the sends waiting for settlement and the reserve's balance.
 * A source that cannot be read (Redis down) leaves its gauge without samples for that scrape,
 * so an alert on absence fires, instead of failing the whole scrape or showing a stale value.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import { countPendingSettlements, getWalletBalance } from '@quern/projections';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The lag in events is counted by reading the unapplied events, at most this many per scrape:
 * a runner further behind shows this number (read it as "at least"), and a scrape stays cheap.
 */
export const LAG_EVENTS_COUNTED_MAX = 1_000;

export interface Lag {
  events: number;
  seconds: number;
}

/**
 * The lag from the events after the applied position (the first LAG_EVENTS_COUNTED_MAX of them):
 * how many, and the age of the oldest one, i.e. how long the read models have been missing it.
 */
export function lagOf(unapplied: readonly Pick<RecordedEvent, 'recordedAt'>[], now: Date): Lag {
  const oldest = unapplied[0];
  if (!oldest) return { events: 0, seconds: 0 };
  const recorded = Date.parse(oldest.recordedAt);
  return { events: unapplied.length, seconds: Number.isNaN(recorded) ? 0 : Math.max(0, (now.getTime() - recorded) / 1000) };
}

export interface ProjectionLagSource {
  store: Pick<EventStore, 'readAll'>;
  /** The runner's last applied position (undefined before the first event). */
  position(): bigint | undefined;
  /** The projections the runner applies; they share one checkpoint, so one lag. */
  projectionNames: readonly string[];
  now?: () => Date;
}

export function registerProjectionLag(registry: Registry, source: ProjectionLagSource): void {
  const now = source.now ?? (() => new Date());
  let pending: Promise<Lag | undefined> | undefined;
  // Both gauges are collected in one scrape: one read of the log serves them.
  const measure = () =>
    (pending ??= source.store
      .readAll({ after: source.position(), maxCount: LAG_EVENTS_COUNTED_MAX })
      .then((events) => lagOf(events, now()))
      .catch(() => undefined)
      .finally(() => setTimeout(() => (pending = undefined), 0)));
  const gauge = (name: string, help: string, pick: (lag: Lag) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['projection'] as const,
      registers: [registry],
      async collect() {
        const lag = await measure();
        this.reset();
        if (!lag) return;
        for (const projection of source.projectionNames) this.set({ projection }, pick(lag));
      },
    });
  gauge(
    'quern_projection_lag_events',
    `Events in the log not yet applied to the projection's read model (counted up to ${LAG_EVENTS_COUNTED_MAX}).`,
    (lag) => lag.events,
  );
  gauge(
    'quern_projection_lag_seconds',
    'Age of the oldest event the projection has not applied yet; 0 when it is caught up.',
    (lag) => lag.seconds,
  );
}

/** BullMQ's states as reported; 'prioritized' jobs are waiting too (BullMQ keeps them apart). */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

export function queueJobCounts(counts: Record<string, number>): Record<(typeof QUEUE_STATES)[number], number> {
  return {
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
  };
}

/** Job counts per queue and state; returns the close of the queues' handles (they share `redis`). */
export function registerQueueJobs(
  registry: Registry,
  options: { redis: Redis; queues: readonly string[]; prefix: string },
): () => Promise<void> {
  const queues = options.queues.map((name) => new Queue(name, { connection: options.redis, prefix: options.prefix }));
  new Gauge({
    name: 'quern_queue_jobs',
    help: 'BullMQ jobs per queue and state (waiting, active, delayed, failed).',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const all = await Promise.all(
        queues.map((queue) =>
          queue
            .getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed')
            .then((counts) => ({ queue: queue.name, counts: queueJobCounts(counts) }))
            .catch(() => undefined),
        ),
      );
      this.reset();
      for (const entry of all) {
        if (!entry) continue;
        for (const state of QUEUE_STATES) this.set({ queue: entry.queue, state }, entry.counts[state]);
      }
    },
  });
  return async () => {
    await Promise.all(queues.map((queue) => queue.close()));
  };
}

/**
 * MLX amounts as gauge values. Prometheus samples are doubles, exact for integers up to 2^53 − 1;
 * every balance is at most the supply, 9 × 10^15 by default, which is below that (ADR 053).
 */
export const mlxGaugeValue = (mlx: string): number => Number(BigInt(mlx));

/** The sends waiting for settlement and the reserve's balance, from the read models. */
export function registerWalletGauges(registry: Registry, redis: Redis): void {
  new Gauge({
    name: 'quern_settlements_pending',
    help: 'Sends reserved and not yet settled (posted) or voided, across all wallets.',
    registers: [registry],
    async collect() {
      this.reset();
      const count = await countPendingSettlements(redis).catch(() => undefined);
      if (count !== undefined) this.set(count);
    },
  });
  new Gauge({
    name: 'quern_reserve_balance_mlx',
    help: 'MLX the reserve can still sell (posted minus held), from the wallet read model.',
    registers: [registry],
    async collect() {
      this.reset();
      const balance = await getWalletBalance(redis, SYSTEM_WALLET_IDS.reserve).catch(() => null);
      if (balance) this.set(mlxGaugeValue(balance.stable));
    },
  });
}

/**
 * The workers' WebhookDeliveryOutcomeLabel, spelled here because only the composition root may
 * import the workers; main.ts hands the counter to them, so the compiler checks the two agree.
 */
const WEBHOOK_OUTCOMES = ['delivered', 'retried', 'given_up', 'abandoned', 'failed'] as const;
type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/** Counts webhook delivery runs by outcome; the workers call the returned function. */
export function registerWebhookDeliveries(registry: Registry): (outcome: WebhookOutcome) => void {
  const deliveries = new Counter({
    name: 'quern_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome: delivered, retried (failed, another attempt scheduled), given_up (last attempt failed), abandoned (endpoint deleted), failed (Quern could not run the attempt).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of WEBHOOK_OUTCOMES) deliveries.inc({ outcome }, 0);
  return (outcome) => deliveries.inc({ outcome });
}

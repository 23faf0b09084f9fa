/**
 * GET /healthz: 200 only when the event store, Redis, projections and workers all answer. The
 * report names the mode (ADR 049), so a monitor sees a sandbox where live was meant.
 */
import type { EventStore, QuernMode } from '@quern/core';
import type { Redis } from 'ioredis';
import { HEARTBEAT_COMPONENTS, readHeartbeats } from './infra/heartbeat.js';

export interface HealthReport {
  ok: boolean;
  mode: QuernMode;
  checks: Record<string, { ok: boolean; detail?: string }>;
}

export type HealthCheck = () => Promise<HealthReport>;

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), CHECK_TIMEOUT_MS).unref())]);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createHealthCheck(store: EventStore, redis: Redis, mode: HealthReport['mode']): HealthCheck {
  return async () => {
    const checks: HealthReport['checks'] = {};
    await withTimeout(store.ping()).then(
      () => (checks.eventStore = { ok: true }),
      (e) => (checks.eventStore = { ok: false, detail: describe(e) }),
    );
    try {
      await withTimeout(redis.ping());
      checks.redis = { ok: true };
      const beats = await withTimeout(readHeartbeats(redis));
      for (const component of HEARTBEAT_COMPONENTS) {
        const beat = beats[component];
        checks[component] = beat?.running ? { ok: true } : { ok: false, detail: beat?.lastError ?? 'no heartbeat' };
      }
    } catch (e) {
      checks.redis = { ok: false, detail: describe(e) };
      for (const component of HEARTBEAT_COMPONENTS) checks[component] = { ok: false, detail: 'redis unavailable' };
    }
    return { ok: Object.values(checks).every((c) => c.ok), mode, checks };
  };
}

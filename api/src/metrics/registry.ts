/**
 * One registry per startQuern (so per process in production, and per Quern in a test that starts
 * several): each process exposes only what it owns (ADR 053). The process families (memory, CPU,
 * event-loop delay, heap, GC) are prom-client's defaults under their usual unprefixed names
 * (process_resident_memory_bytes, nodejs_eventloop_lag_seconds, ...), which ready-made Node.js
 * dashboards expect.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { type AppendMetrics, createAppendMetrics } from './event-store.js';

export interface QuernMetrics {
  registry: Registry;
  appends: AppendMetrics;
}

export function createQuernMetrics(): QuernMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return { registry, appends: createAppendMetrics(registry) };
}

/**
 * Heartbeats: each background component (projections, dispatcher, workers, deposit watcher) writes its status to
 * Redis with a short expiry, so /healthz can tell whether they are up whether they run in the
 * api's process (npm start) or in processes of their own (docker-compose).
 */
import type { Redis } from 'ioredis';

export const HEARTBEAT_COMPONENTS = ['projections', 'dispatcher', 'workers', 'deposits'] as const;
export type HeartbeatComponent = (typeof HEARTBEAT_COMPONENTS)[number];

/** Missing this many beats in a row means the component is down. */
const BEATS_MISSED_MAX = 3;

export interface ComponentStatus {
  running: boolean;
  lastError?: string;
  [detail: string]: unknown;
}

const key = (component: HeartbeatComponent) => `quern:heartbeat:${component}`;

export function startHeartbeat(
  redis: Redis,
  component: HeartbeatComponent,
  status: () => ComponentStatus,
  intervalMs: number,
): () => Promise<void> {
  const beat = async () => {
    const value = JSON.stringify(status(), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    await redis.set(key(component), value, 'PX', intervalMs * BEATS_MISSED_MAX).catch(() => undefined);
  };
  void beat();
  const timer = setInterval(beat, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await redis.del(key(component)).catch(() => undefined);
  };
}

export async function readHeartbeats(redis: Redis): Promise<Record<HeartbeatComponent, ComponentStatus | undefined>> {
  const values = await redis.mget(...HEARTBEAT_COMPONENTS.map(key));
  return Object.fromEntries(
    HEARTBEAT_COMPONENTS.map((c, i) => [c, values[i] ? (JSON.parse(values[i] as string) as ComponentStatus) : undefined]),
  ) as Record<HeartbeatComponent, ComponentStatus | undefined>;
}

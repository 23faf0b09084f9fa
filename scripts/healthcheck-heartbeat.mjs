// The container health check of the processes without an HTTP server (projections, workers):
// healthy while the heartbeat of every part the process runs (written every HEARTBEAT_INTERVAL_MS,
// expiring after three beats, api/src/infra/heartbeat.ts) is in Redis and says running. A part
// that gave up keeps beating `{ running: false, lastError }`, which /healthz counts as down
// (api/src/health.ts), so this does too. Plain JavaScript, no tsx: it runs every few seconds.
// Usage: node scripts/healthcheck-heartbeat.mjs <part>... (projections; workers dispatcher deposits)
import { Redis } from 'ioredis';

const parts = process.argv.slice(2);
if (parts.length === 0 || !parts.every((part) => /^[a-z-]+$/.test(part))) {
  console.error('usage: node scripts/healthcheck-heartbeat.mjs <part>...');
  process.exit(2);
}
const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  lazyConnect: true,
  connectTimeout: 3000,
  maxRetriesPerRequest: 0,
  retryStrategy: () => null,
});
// The failure is reported once, by the awaited call below; without a listener ioredis prints it again.
redis.on('error', () => {});

/** Why `part` is not healthy, or undefined when its heartbeat says running. */
function problemOf(part, value) {
  if (value === null) return `${part}: no heartbeat`;
  try {
    const status = JSON.parse(value);
    return status?.running === true ? undefined : `${part}: not running (${status?.lastError ?? 'no error given'})`;
  } catch {
    return `${part}: unreadable heartbeat`;
  }
}

try {
  await redis.connect();
  const values = await redis.mget(...parts.map((part) => `quern:heartbeat:${part}`));
  redis.disconnect();
  const problems = parts.map((part, i) => problemOf(part, values[i] ?? null)).filter(Boolean);
  for (const problem of problems) console.error(`healthcheck: ${problem}`);
  process.exit(problems.length === 0 ? 0 : 1);
} catch (error) {
  console.error(`healthcheck: ${error instanceof Error ? error.message : String(error)}`);
  redis.disconnect();
  process.exit(1);
}

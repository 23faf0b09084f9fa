/**
 * `npm run projections:rebuild`: deletes every read model (rm:*) and replays the whole log into
 * them. Safe while a projections process runs: the rebuild fences the checkpoint, the runner
 * waits, and it resumes from where the rebuild ends.
 *
 * Environment: REDIS_URL (default redis://127.0.0.1:6379), DATA_DIR (default ./data),
 * EVENTSTORE_URL (optional; unset means the embedded SQLite log under DATA_DIR).
 */
import { resolve } from 'node:path';
import { allProjections, rebuildProjections } from '@quern/projections';
import { Redis } from 'ioredis';
import { openEventStore } from '@quern/adapters/eventstore';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dataDir = resolve(process.env.DATA_DIR ?? './data');
const eventStoreUrl = process.env.EVENTSTORE_URL || undefined;

// A bounded reconnect: an operator command should fail with a message, not hang on a dead Redis.
const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3, retryStrategy: (times) => (times > 5 ? null : times * 200) });
// Connection errors surface through the failed command below; without a listener ioredis would
// also print each one as an "unhandled error event".
redis.on('error', () => undefined);
const store = openEventStore({ eventStoreUrl, dataDir, personalDataKey: process.env.PERSONAL_DATA_KEY || undefined });
let exitCode = 0;
try {
  console.log(`[rebuild] replaying ${eventStoreUrl ? 'the KurrentDB log' : `${dataDir}/events.sqlite`} into ${redisUrl}`);
  const report = await rebuildProjections({ store, redis, projections: allProjections });
  console.log(
    `[rebuild] deleted ${report.deletedKeys} keys, replayed ${report.events} events up to position ${report.position ?? 'none'} ` +
      `in ${(report.durationMs / 1000).toFixed(1)} s (${report.eventsPerSecond} events/s)`,
  );
} catch (error) {
  console.error(`[rebuild] failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await store.close().catch(() => undefined);
  redis.disconnect();
}
process.exit(exitCode);

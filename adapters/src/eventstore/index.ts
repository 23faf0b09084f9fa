/**
 * Chooses the event store for this process: KurrentDB when EVENTSTORE_URL is configured (the
 * docker-compose deployment), otherwise the embedded SQLite log under DATA_DIR (the default,
 * no server needed).
 */
import { join } from 'node:path';
import type { EventStore } from '@quern/core';
import { openKurrentEventStore } from './kurrentdb.js';
import { openSqliteEventStore } from './sqlite.js';

export { openKurrentEventStore } from './kurrentdb.js';
export { openSqliteEventStore, type SqliteEventStore } from './sqlite.js';

export function openEventStore(config: { eventStoreUrl?: string; dataDir: string }): EventStore {
  if (config.eventStoreUrl) return openKurrentEventStore({ connectionString: config.eventStoreUrl });
  return openSqliteEventStore({ file: join(config.dataDir, 'events.sqlite') });
}
export { MAX_BATCH_APPENDS, MAX_BATCH_EVENTS } from './sqlite-writer.js';

/**
 * Test support: a real SQLite event store in a temporary directory. The adapter belongs to the
 * api workspace; only tests import it, production code sees the EventStore port alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventStore } from '@quern/core';
import { openSqliteEventStore } from '@quern/adapters/eventstore';

export interface TempStore {
  store: EventStore;
  dir: string;
  dispose(): Promise<void>;
}

export function openTempStore(prefix = 'quern-test-'): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const store = openSqliteEventStore({ file: join(dir, 'events.sqlite') });
  return {
    store,
    dir,
    async dispose() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

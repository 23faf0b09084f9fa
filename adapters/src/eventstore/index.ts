/**
 * Chooses the event store for this process: KurrentDB when EVENTSTORE_URL is configured (the
 * docker-compose deployment), otherwise the embedded SQLite log under DATA_DIR (the default,
 * no server needed).
 */
import { join } from 'node:path';
import type { EventStore } from '@quern/core';
import { openKurrentEventStore } from './kurrentdb.js';
import { openSqliteEventStore } from './sqlite.js';
import { masterKeySource } from '../personal-data/master-key.js';
import { openKeyVault } from '../personal-data/key-vault.js';
import { type SealingEventStore, withPersonalDataSealing } from '../personal-data/sealing-store.js';

export { openKurrentEventStore } from './kurrentdb.js';
export { openSqliteEventStore, type SqliteEventStore } from './sqlite.js';

/** The log as recorded, without the personal-data layer (the migration and the contract tests use it). */
export function openRawEventStore(config: { eventStoreUrl?: string; dataDir: string }): EventStore {
  if (config.eventStoreUrl) return openKurrentEventStore({ connectionString: config.eventStoreUrl });
  return openSqliteEventStore({ file: join(config.dataDir, 'events.sqlite') });
}

/**
 * The log as every Quern process uses it: personal data sealed with per-account keys kept in
 * DATA_DIR/personal-data-keys.sqlite (ADR 042). `personalDataKey` is PERSONAL_DATA_KEY.
 */
export function openEventStore(config: { eventStoreUrl?: string; dataDir: string; personalDataKey?: string }): SealingEventStore {
  const vault = openKeyVault(join(config.dataDir, KEY_VAULT_FILE), masterKeySource(config.personalDataKey, config.dataDir));
  return withPersonalDataSealing(openRawEventStore(config), vault);
}

export const KEY_VAULT_FILE = 'personal-data-keys.sqlite';

/**
 * Refuses a log recorded before personal data was sealed: `npm run migrate:personal-data` must
 * seal it first (ADR 042). Every process calls this before its first append. A process marks the
 * vault only after finding the log empty, so a log with events and no mark is an old one; the
 * mark is read again after the log, because another process may have marked it and appended
 * in between.
 */
export async function assertSealedLog(store: SealingEventStore): Promise<void> {
  const vault = store.personalData;
  if (vault.isLogVerified()) return;
  const first = await store.readAll({ maxCount: 1 });
  if (first.length === 0) return vault.markLogVerified();
  if (!vault.isLogVerified())
    throw new Error(
      'This event log has events but no personal-data key vault (DATA_DIR/personal-data-keys.sqlite) that saw it: either it was ' +
        'recorded before personal data was sealed (ADR 042; stop Quern and run `npm run migrate:personal-data` once), or the vault ' +
        'was lost (restore it and DATA_DIR/personal-data-key from the backup taken with the log).',
    );
}
export { MAX_BATCH_APPENDS, MAX_BATCH_EVENTS } from './sqlite-writer.js';

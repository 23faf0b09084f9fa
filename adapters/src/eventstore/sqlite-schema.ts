/**
 * The SQLite event log's connection settings, schema and row mapping. Kept apart from the
 * writer and the store so that the durability settings are visible in one place.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordedEvent } from '@quern/core';

/** How long a writer waits for another process's write lock before its batch fails. */
export const BUSY_TIMEOUT_MS = 5_000;
/** After a checkpoint SQLite truncates the WAL file back to this size, so it cannot grow forever. */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT    NOT NULL UNIQUE,
    stream_id   TEXT    NOT NULL,
    revision    INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    metadata    TEXT    NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (stream_id, revision)
  );
  CREATE TABLE IF NOT EXISTS streams (
    stream_id     TEXT    PRIMARY KEY,
    last_revision INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

/**
 * Opens (creating when missing) the event log at `file`. WAL lets readers (subscriptions, other
 * processes) run while one writer commits. synchronous = FULL makes every COMMIT fsync the WAL,
 * so a commit that has returned survives power loss, not only a process crash; group commit is
 * what pays for that fsync (ADR 002). AUTOINCREMENT guarantees a position is never reused, which
 * checkpoints rely on. safeIntegers returns INTEGER columns as bigint, so revisions and
 * positions never pass through a float.
 */
export function openLogDatabase(file: string): Database.Database {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.defaultSafeIntegers(true);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.exec(SCHEMA);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** An `events` row as better-sqlite3 returns it with safe integers on. */
export interface EventRow {
  position: bigint;
  id: string;
  stream_id: string;
  revision: bigint;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
}

export const EVENT_COLUMNS = 'position, id, stream_id, revision, type, data, metadata, recorded_at';

export function rowToEvent(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    streamId: row.stream_id,
    revision: row.revision,
    position: row.position,
    type: row.type,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    recordedAt: row.recorded_at,
  };
}

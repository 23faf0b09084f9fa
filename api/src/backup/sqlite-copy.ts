/**
 * Online copies of SQLite files through SQLite's backup API, from a connection of our own (the
 * running Quern keeps its writer thread and readers; ADR 021). The whole file is copied in one
 * step, inside one read transaction, so the copy is the database as of one commit even while
 * other processes write: in WAL mode that read does not block them, and a step that a write
 * interrupted starts again from scratch.
 */
import Database from 'better-sqlite3';

/** sqlite3_backup_step's "every remaining page" (better-sqlite3 caps the rate at this). */
const ALL_PAGES = 0x7fffffff;

export async function backupSqlite(source: Database.Database, destination: string): Promise<void> {
  await source.backup(destination, { progress: () => ALL_PAGES });
  settleCopy(destination);
}

/**
 * Leaves the copy as one self-contained file: journal mode DELETE (a WAL-mode copy would grow
 * -wal and -shm files beside it the first time it is opened) and checked page by page.
 */
function settleCopy(file: string): void {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy ${file} fails SQLite's check: ${String(check)}`);
  } finally {
    db.close();
  }
}

export function openForCopy(file: string): Database.Database {
  return new Database(file, { fileMustExist: true, timeout: 10_000 });
}

/**
 * The node adapter's send journal: what makes `send` idempotent by transferId although the
 * millix node has no idempotency key. One SQLite row per transfer, written (and fsynced) BEFORE
 * the node is asked to send, so that after a crash or a lost answer the adapter knows an attempt
 * may have reached the node and does not simply send again:
 *   row without hash = an attempt whose outcome is unknown ("in doubt");
 *   row with hash    = sent; the same transferId gets the same hash forever.
 * A definitive refusal (the node answered "fail") deletes the row: nothing moved.
 *
 * The file is local to a host (`<DATA_DIR>/millix-node-sends.sqlite`). Workers on several hosts
 * must share it or settle external sends on one host; see ADR 008.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export const JOURNAL_FILE_NAME = 'millix-node-sends.sqlite';
const BUSY_TIMEOUT_MS = 5_000;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS sends (
    transfer_id      TEXT    PRIMARY KEY,
    to_address       TEXT    NOT NULL,
    amount_mlx       INTEGER NOT NULL,
    fee_mlx          INTEGER NOT NULL,
    attempted_at_ms  INTEGER NOT NULL,
    transaction_hash TEXT    UNIQUE,
    shard_id         TEXT
  ) WITHOUT ROWID;
`;

export interface JournalEntry {
  transferId: string;
  toAddress: string;
  amountMlx: bigint;
  feeMlx: bigint;
  attemptedAtMs: number;
  transactionHash: string | undefined;
  shardId: string | undefined;
}

interface Row {
  transfer_id: string;
  to_address: string;
  amount_mlx: bigint;
  fee_mlx: bigint;
  attempted_at_ms: bigint;
  transaction_hash: string | null;
  shard_id: string | null;
}

export interface SendJournal {
  get(transferId: string): JournalEntry | undefined;
  /** Records a first attempt; false when another attempt already holds the transfer. */
  begin(entry: Omit<JournalEntry, 'transactionHash' | 'shardId'>): boolean;
  /** Moves an in-doubt attempt to a new attempt time; false when someone else moved it first. */
  retake(transferId: string, previousAttemptAtMs: number, attemptedAtMs: number): boolean;
  complete(transferId: string, transactionHash: string, shardId: string): void;
  /** The node refused: forget the attempt (only while it has no hash). */
  forget(transferId: string): void;
  /** Whether some transfer already owns this transaction (so a search never matches it twice). */
  isClaimed(transactionHash: string): boolean;
  shardOf(transactionHash: string): string | undefined;
  close(): void;
}

const toEntry = (row: Row): JournalEntry => ({
  transferId: row.transfer_id,
  toAddress: row.to_address,
  amountMlx: row.amount_mlx,
  feeMlx: row.fee_mlx,
  attemptedAtMs: Number(row.attempted_at_ms),
  transactionHash: row.transaction_hash ?? undefined,
  shardId: row.shard_id ?? undefined,
});

export function openSendJournal(file: string): SendJournal {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.defaultSafeIntegers(true);
    db.pragma('journal_mode = WAL');
    // The row must be on disk before the node is asked to move money.
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
  } catch (error) {
    db.close();
    throw error;
  }
  const select = db.prepare<[string], Row>('SELECT * FROM sends WHERE transfer_id = ?');
  const insert = db.prepare(
    `INSERT INTO sends (transfer_id, to_address, amount_mlx, fee_mlx, attempted_at_ms)
     VALUES (@transferId, @toAddress, @amountMlx, @feeMlx, @attemptedAtMs) ON CONFLICT (transfer_id) DO NOTHING`,
  );
  const retake = db.prepare(
    'UPDATE sends SET attempted_at_ms = ? WHERE transfer_id = ? AND attempted_at_ms = ? AND transaction_hash IS NULL',
  );
  const complete = db.prepare('UPDATE sends SET transaction_hash = ?, shard_id = ? WHERE transfer_id = ? AND transaction_hash IS NULL');
  const forget = db.prepare('DELETE FROM sends WHERE transfer_id = ? AND transaction_hash IS NULL');
  const byHash = db.prepare<[string], Row>('SELECT * FROM sends WHERE transaction_hash = ?');

  return {
    get: (transferId) => {
      const row = select.get(transferId);
      return row ? toEntry(row) : undefined;
    },
    begin: (entry) =>
      insert.run({
        transferId: entry.transferId,
        toAddress: entry.toAddress,
        amountMlx: entry.amountMlx,
        feeMlx: entry.feeMlx,
        attemptedAtMs: entry.attemptedAtMs,
      }).changes === 1,
    retake: (transferId, previousAttemptAtMs, attemptedAtMs) => retake.run(attemptedAtMs, transferId, previousAttemptAtMs).changes === 1,
    complete: (transferId, transactionHash, shardId) => {
      complete.run(transactionHash, shardId, transferId);
    },
    forget: (transferId) => {
      forget.run(transferId);
    },
    isClaimed: (transactionHash) => byHash.get(transactionHash) !== undefined,
    shardOf: (transactionHash) => byHash.get(transactionHash)?.shard_id ?? undefined,
    close: () => db.close(),
  };
}

/**
 * Group commit for the SQLite event log. Appends issued while a flush is pending (in practice:
 * everything issued in the same event-loop turn) are written in ONE SQLite transaction, so one
 * fsync covers many appends. Each append is still checked on its own: its expected revision is
 * evaluated inside the batch transaction in queue order (so it sees earlier appends of the same
 * batch), and it runs in its own savepoint so that a failing append is rolled back alone. No
 * promise settles before COMMIT has returned. See docs/decisions/002-sqlite-group-commit.md.
 */
import type Database from 'better-sqlite3';
import { type AppendResult, DuplicateEventIdError, type ExpectedRevision, WrongExpectedRevisionError } from '@quern/core';
import { compareIds, judgeRetry, type Recorded, retryWindow } from './retry.js';
import type { PreparedStreamAppend } from './validation.js';

/** Upper bound on appends (calls) per transaction, so one flush cannot hold the event loop for long. */
export const MAX_BATCH_APPENDS = 256;
/** Upper bound on events per transaction (an append is never split; a batch holds at least one). */
export const MAX_BATCH_EVENTS = 4_096;

/**
 * One call to append or appendToStreams: one or more streams written all-or-nothing. A single
 * append is the one-stream case, so both share the same path and the same guarantees.
 */
export interface QueuedAppend {
  appends: PreparedStreamAppend[];
  resolve(results: AppendResult[]): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; results: AppendResult[] } | { ok: false; error: unknown };

const eventCount = (append: QueuedAppend) => append.appends.reduce((sum, a) => sum + a.events.length, 0);

function isConstraintError(error: unknown): boolean {
  return error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_CONSTRAINT');
}

function isDuplicateId(error: unknown): boolean {
  return isConstraintError(error) && error instanceof Error && error.message.includes('events.id');
}

export class GroupCommitWriter {
  readonly #db: Database.Database;
  readonly #onCommitted: () => void;
  readonly #queue: QueuedAppend[] = [];
  #scheduled = false;
  readonly #counts = { transactions: 0, appends: 0 };
  readonly #writeBatch: (batch: QueuedAppend[], recordedAt: string) => Outcome[];

  /** `onCommitted` runs after every COMMIT that wrote at least one event (wakes subscriptions). */
  constructor(db: Database.Database, onCommitted: () => void) {
    this.#db = db;
    this.#onCommitted = onCommitted;
    this.#writeBatch = this.#compile();
  }

  enqueue(append: QueuedAppend): void {
    this.#queue.push(append);
    if (this.#scheduled) return;
    this.#scheduled = true;
    // setImmediate (not a microtask) lets every append issued in this turn, and the
    // continuations of the previous batch's promises, join the next batch.
    setImmediate(() => this.#flushOne());
  }

  /** Writes everything still queued, synchronously (used by close()). */
  drain(): void {
    while (this.#queue.length > 0) this.#writeNext();
  }

  stats(): { transactions: number; appends: number } {
    return { ...this.#counts };
  }

  #flushOne(): void {
    this.#scheduled = false;
    this.#writeNext();
    if (this.#queue.length > 0 && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flushOne());
    }
  }

  #takeBatch(): QueuedAppend[] {
    let events = 0;
    let count = 0;
    for (const append of this.#queue) {
      const size = eventCount(append);
      if (count > 0 && (count >= MAX_BATCH_APPENDS || events + size > MAX_BATCH_EVENTS)) break;
      events += size;
      count += 1;
    }
    return this.#queue.splice(0, count);
  }

  #writeNext(): void {
    const batch = this.#takeBatch();
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = this.#writeBatch(batch, new Date().toISOString());
    } catch (error) {
      // BEGIN or COMMIT failed (e.g. another process held the write lock past the busy
      // timeout, or the disk is full): nothing of this batch is in the log.
      for (const append of batch) append.reject(error);
      return;
    }
    this.#counts.transactions += 1;
    let written = 0;
    for (const [i, append] of batch.entries()) {
      const outcome = outcomes[i];
      if (outcome?.ok) {
        written += 1;
        append.resolve(outcome.results);
      } else {
        append.reject(outcome ? outcome.error : new Error('group commit lost an append outcome'));
      }
    }
    this.#counts.appends += written;
    if (written > 0) this.#onCommitted();
  }

  #compile(): (batch: QueuedAppend[], recordedAt: string) => Outcome[] {
    const db = this.#db;
    const lastRevision = db.prepare<[string], bigint>('SELECT last_revision FROM streams WHERE stream_id = ?').pluck();
    const insertEvent = db.prepare<[string, string, bigint, string, string, string, string]>(
      'INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const saveRevision = db.prepare<[string, bigint]>(
      'INSERT INTO streams (stream_id, last_revision) VALUES (?, ?) ' +
        'ON CONFLICT (stream_id) DO UPDATE SET last_revision = excluded.last_revision',
    );

    const idsBetween = db.prepare<[string, bigint, bigint], { id: string; position: bigint }>(
      'SELECT id, position FROM events WHERE stream_id = ? AND revision BETWEEN ? AND ? ORDER BY revision',
    );

    const writeStream = (append: PreparedStreamAppend, current: bigint | undefined, recordedAt: string): AppendResult => {
      checkExpected(append.streamId, append.expected, current);
      let revision = current ?? -1n;
      let position = 0n;
      for (const event of append.events) {
        revision += 1n;
        const info = insertEvent.run(event.id, append.streamId, revision, event.type, event.dataJson, event.metadataJson, recordedAt);
        position = BigInt(info.lastInsertRowid);
      }
      saveRevision.run(append.streamId, revision);
      return { nextExpectedRevision: revision, position };
    };

    /** Where a retry of this stream append would find its events, and whether they are there. */
    const lookUp = (append: PreparedStreamAppend) => {
      const current = lastRevision.get(append.streamId);
      const window = retryWindow(append.expected, append.events.length, current);
      const rows = window ? idsBetween.all(append.streamId, window.from, window.to) : [];
      const recorded: Recorded = compareIds(
        append.events.map((e) => e.id),
        rows.map((r) => r.id),
      );
      const original =
        window && rows.length === append.events.length
          ? { nextExpectedRevision: window.to, position: rows.at(-1)?.position ?? 0n }
          : undefined;
      return { append, current, recorded, original, streamId: append.streamId };
    };

    // Called inside the batch transaction, so better-sqlite3 runs it as a SAVEPOINT: when any of
    // its streams throws, every stream of this call is rolled back and the rest of the batch
    // stays. Its inserts follow each other with nothing in between, so its positions are
    // consecutive in the order of its streams. Every stream is looked up before anything is
    // written, so a retry is judged on the log as it was before this call (ADR 018).
    const appendOne = db.transaction((append: QueuedAppend, recordedAt: string): AppendResult[] => {
      const lookups = append.appends.map(lookUp);
      if (judgeRetry(lookups) === 'recorded') {
        return lookups.map((l) => {
          if (!l.original) throw new Error(`Stream ${l.streamId}: a recorded append has no original result`);
          return l.original;
        });
      }
      return lookups.map((l) => writeStream(l.append, l.current, recordedAt));
    });

    const writeBatch = db.transaction((batch: QueuedAppend[], recordedAt: string): Outcome[] =>
      batch.map((append) => {
        try {
          return { ok: true, results: appendOne(append, recordedAt) };
        } catch (error) {
          // Only failures that belong to this append are contained; anything else (I/O error,
          // SQLite having rolled back the whole transaction) aborts the batch.
          const ownFailure =
            error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError || isConstraintError(error);
          if (!ownFailure || !db.inTransaction) throw error;
          return { ok: false, error: isDuplicateId(error) ? duplicateInLog(append, error) : error };
        }
      }),
    );
    // IMMEDIATE takes the write lock at BEGIN, so the revision checks and the inserts are atomic
    // even when another process writes to the same file.
    return (batch, recordedAt) => writeBatch.immediate(batch, recordedAt);
  }
}

/** An id of this call is recorded elsewhere in the log (SQLite keeps ids unique log-wide). */
function duplicateInLog(append: QueuedAppend, cause: unknown): DuplicateEventIdError {
  const streams = append.appends.map((a) => a.streamId).join(', ');
  return new DuplicateEventIdError(streams, 'an event id of this append is already recorded elsewhere in the log', { cause });
}

function checkExpected(streamId: string, expected: ExpectedRevision, current: bigint | undefined): void {
  if (expected === 'any') return;
  if (expected === 'no_stream' ? current === undefined : current === expected) return;
  throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}

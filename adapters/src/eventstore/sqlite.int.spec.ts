// Proves the SQLite event store meets the event-store contract and that its group commit batches
// concurrent appends without weakening durability, isolation between appends, or visibility to
// other processes writing the same file.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DuplicateEventIdError, type RecordedEvent, WrongExpectedRevisionError } from '@quern/core';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeEventStoreContract } from '../../test/eventstore/contract.js';
import { openSqliteEventStore, type SqliteEventStore } from './sqlite.js';

const root = mkdtempSync(join(tmpdir(), 'quern-sqlite-store-'));
let fileCounter = 0;
const newFile = () => {
  fileCounter += 1;
  return join(root, `log-${fileCounter}`, 'events.sqlite');
};
afterAll(() => rmSync(root, { recursive: true, force: true }));

describeEventStoreContract('SQLite', async () => openSqliteEventStore({ file: newFile() }));

describe('SQLite event store', () => {
  const stores: SqliteEventStore[] = [];
  const open = (file = newFile()) => {
    const store = openSqliteEventStore({ file });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  /** A second connection, as another process would open the file. */
  const readWithFreshConnection = (file: string, sql: string, ...params: string[]) => {
    const db = new Database(file, { readonly: true });
    try {
      db.defaultSafeIntegers(true);
      return db.prepare(sql).all(...params);
    } finally {
      db.close();
    }
  };

  it('creates the parent directory of the log file and uses WAL', async () => {
    const file = join(root, 'nested', 'deeper', 'events.sqlite');
    const store = open(file);
    await store.append('s-1', [{ type: 'Created', data: {} }], 'no_stream');
    expect(readWithFreshConnection(file, 'PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
  });

  it('writes 200 concurrent appends to 200 streams in far fewer transactions, all durable', async () => {
    // Given a store and 200 appends issued in the same turn
    const file = newFile();
    const store = open(file);
    const before = store.stats();
    const appends = Array.from({ length: 200 }, (_, i) => store.append(`wallet-${i}`, [{ type: 'Opened', data: { i } }], 'no_stream'));
    // When they all resolve
    const results = await Promise.all(appends);
    // Then they were grouped, and every one is visible to a fresh connection at its position
    const after = store.stats();
    expect(after.appends - before.appends).toBe(200);
    expect(after.transactions - before.transactions).toBeLessThanOrEqual(4);
    const rows = readWithFreshConnection(file, 'SELECT position, stream_id FROM events ORDER BY position') as Array<{
      position: bigint;
      stream_id: string;
    }>;
    expect(rows).toHaveLength(200);
    expect(new Set(results.map((r) => r.position))).toEqual(new Set(rows.map((r) => r.position)));
  });

  it('makes an append visible to another connection as soon as it resolves', async () => {
    const file = newFile();
    const store = open(file);
    const { position } = await store.append('durable', [{ type: 'Written', data: { ok: true } }], 'no_stream');
    const rows = readWithFreshConnection(file, 'SELECT position, data FROM events WHERE stream_id = ?', 'durable');
    expect(rows).toEqual([{ position, data: '{"ok":true}' }]);
  });

  it('checks appends of one batch in queue order, so they see each other and fail alone', async () => {
    // Given a stream that does not exist yet and appends issued together
    const store = open();
    const first = store.append('batch', [{ type: 'A', data: {} }], 'no_stream');
    const second = store.append('batch', [{ type: 'B', data: {} }], 0n);
    const stale = store.append('batch', [{ type: 'C', data: {} }], 'no_stream');
    const other = store.append('batch-other', [{ type: 'D', data: {} }], 'no_stream');
    // When the batch commits, then the second sees the first, the stale claim fails alone
    await expect(first).resolves.toMatchObject({ nextExpectedRevision: 0n });
    await expect(second).resolves.toMatchObject({ nextExpectedRevision: 1n });
    await expect(stale).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    await expect(other).resolves.toMatchObject({ nextExpectedRevision: 0n });
    expect((await store.readStream('batch')).map((e) => e.type)).toEqual(['A', 'B']);
    expect(store.stats().transactions).toBe(1);
  });

  it('writes multi-stream appends in the same group commit, a failing one rolled back alone', async () => {
    // Given a stream at revision 0, and single and multi-stream appends issued in the same turn
    const store = open();
    await store.append('multi-shared', [{ type: 'Opened', data: {} }], 'no_stream');
    const before = store.stats().transactions;
    const wins = store.appendToStreams([
      { streamId: 'multi-a', events: [{ type: 'Debited', data: {} }], expectedRevision: 'no_stream' },
      { streamId: 'multi-shared', events: [{ type: 'Moved', data: {} }], expectedRevision: 0n },
    ]);
    const stale = store.appendToStreams([
      { streamId: 'multi-b', events: [{ type: 'Debited', data: {} }], expectedRevision: 'no_stream' },
      { streamId: 'multi-shared', events: [{ type: 'Moved', data: {} }], expectedRevision: 0n },
    ]);
    const single = store.append('multi-c', [{ type: 'Opened', data: {} }], 'no_stream');
    // When the batch commits
    await expect(wins).resolves.toHaveLength(2);
    await expect(stale).rejects.toMatchObject({ streamId: 'multi-shared', actual: 1n });
    await expect(single).resolves.toMatchObject({ nextExpectedRevision: 0n });
    // Then all three shared one transaction, and the stale call left nothing behind
    expect(store.stats().transactions - before).toBe(1);
    expect(await store.readStream('multi-b')).toEqual([]);
    expect((await store.readStream('multi-shared')).map((e) => e.type)).toEqual(['Opened', 'Moved']);
  });

  it('rolls back an append that repeats an event id, keeping the rest of the batch', async () => {
    const store = open();
    const id = randomUUID();
    await store.append('ids', [{ type: 'A', data: {}, id }], 'no_stream');
    const repeated = store.append(
      'ids-2',
      [
        { type: 'B', data: {} },
        { type: 'C', data: {}, id },
      ],
      'no_stream',
    );
    const fine = store.append('ids-3', [{ type: 'D', data: {} }], 'no_stream');
    await expect(repeated).rejects.toBeInstanceOf(DuplicateEventIdError);
    await expect(fine).resolves.toMatchObject({ nextExpectedRevision: 0n });
    expect(await store.readStream('ids-2')).toEqual([]);
  });

  it('refuses an id recorded at another revision of the same stream even when the revision holds', async () => {
    // Given an event recorded at revision 0 (KurrentDB keeps no id index and would append it again)
    const store = open();
    const id = randomUUID();
    await store.append('same-stream', [{ type: 'A', data: {}, id }], 'no_stream');
    // When the same id is appended at revision 1, which holds
    const error = await store.append('same-stream', [{ type: 'A', data: {}, id }], 0n).catch((e: unknown) => e);
    // Then SQLite refuses it, and the stream is unchanged
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(error).toMatchObject({ code: 'DUPLICATE_EVENT_ID' });
    expect(await store.readStream('same-stream')).toHaveLength(1);
  });

  it('answers a retry issued in the same batch as the original from the rows that batch wrote', async () => {
    const store = open();
    const events = [{ type: 'A', data: {}, id: randomUUID() }];
    const first = store.append('same-batch', events, 'no_stream');
    const retry = store.append('same-batch', events, 'no_stream');
    expect(await retry).toEqual(await first);
    expect(store.stats().transactions).toBe(1);
  });

  it('writes appends still queued when close() is called, then refuses new ones', async () => {
    const file = newFile();
    const store = openSqliteEventStore({ file });
    const pending = store.append('closing', [{ type: 'Last', data: {} }], 'no_stream');
    await store.close();
    await expect(pending).resolves.toMatchObject({ nextExpectedRevision: 0n });
    expect(readWithFreshConnection(file, 'SELECT count(*) AS n FROM events')).toEqual([{ n: 1n }]);
    await expect(store.append('closing', [{ type: 'Late', data: {} }], 0n)).rejects.toThrow(/closed/);
  });

  it("delivers another process's appends to a live subscription by polling", async () => {
    // Given a store with a live subscription, and a second store on the same file
    const file = newFile();
    const server = open(file);
    const cli = open(file);
    const { position } = await server.append('shared', [{ type: 'First', data: {} }], 'no_stream');
    const subscription = server.subscribeToAll({ after: position });
    const iterator = subscription[Symbol.asyncIterator]();
    const next = iterator.next();
    // When the second store appends
    const started = Date.now();
    await cli.append('shared', [{ type: 'FromCli', data: {} }], 0n);
    // Then the first store's subscription receives it, without any append of its own
    const delivered = await Promise.race([next, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 3_000))]);
    expect(delivered).not.toBe('timeout');
    expect((delivered as IteratorResult<RecordedEvent>).value?.type).toBe('FromCli');
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.stats().appends).toBe(1);
    await subscription.close();
  });

  it('ends live subscriptions when the store closes', async () => {
    const store = openSqliteEventStore({ file: newFile() });
    const subscription = store.subscribeToAll();
    const next = subscription[Symbol.asyncIterator]().next();
    await store.close();
    await expect(next).resolves.toEqual({ done: true, value: undefined });
  });
});

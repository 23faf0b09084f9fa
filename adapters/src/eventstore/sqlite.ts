/**
 * The embedded event store: one SQLite file, no server. Appends go through the group-commit
 * writer (sqlite-writer.ts); reads are plain indexed queries; subscriptions catch up in pages and
 * then follow both this process's commits and, by polling, other processes writing to the file.
 */
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  LogSubscription,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamAppend,
} from '@quern/core';
import { EVENT_COLUMNS, type EventRow, openLogDatabase, rowToEvent } from './sqlite-schema.js';
import { GroupCommitWriter } from './sqlite-writer.js';
import { AppendNotifier, PollingSubscription } from './polling-subscription.js';
import { checkAfter, checkReadAll, checkReadStream, type PreparedStreamAppend, prepareAppend, prepareStreamAppends } from './validation.js';

/** Events per catch-up page of a subscription. */
export const SUBSCRIPTION_PAGE_SIZE = 500;
/** How often an idle subscription looks for events appended by other processes. */
export const POLL_INTERVAL_MS = 100;

export type SqliteEventStore = EventStore & { stats(): { transactions: number; appends: number } };

export function openSqliteEventStore(options: { file: string }): SqliteEventStore {
  const db = openLogDatabase(options.file);
  const notifier = new AppendNotifier();
  const writer = new GroupCommitWriter(db, () => notifier.notify());
  const subscriptions = new Set<LogSubscription>();
  let closed = false;

  const selectAfter = db.prepare<[bigint, number], EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
  );
  // LIMIT -1 is SQLite's "no limit"; the port leaves a stream read unbounded unless asked.
  const selectStream = db.prepare<[string, bigint, number], EventRow>(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`,
  );
  const selectOne = db.prepare('SELECT 1').pluck();

  const readPage = (after: bigint, maxCount: number): RecordedEvent[] => selectAfter.all(after, maxCount).map(rowToEvent);

  function assertOpen(): void {
    if (closed) throw new Error('The SQLite event store is closed');
  }

  /** Queues one all-or-nothing write; validation errors reject before anything is queued. */
  function write(prepare: () => PreparedStreamAppend[]): Promise<AppendResult[]> {
    return new Promise((resolve, reject) => {
      assertOpen();
      writer.enqueue({ appends: prepare(), resolve, reject });
    });
  }

  return {
    async append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
      const [result] = await write(() => [
        { streamId, events: prepareAppend(streamId, events, expectedRevision), expected: expectedRevision },
      ]);
      if (!result) throw new Error(`The append to ${streamId} returned no result`);
      return result;
    },

    appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
      return write(() => prepareStreamAppends(appends));
    },

    async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
      assertOpen();
      checkReadStream(streamId, options);
      return selectStream.all(streamId, options.fromRevision ?? 0n, options.maxCount ?? -1).map(rowToEvent);
    },

    async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
      assertOpen();
      checkReadAll(options);
      return readPage(options.after ?? 0n, options.maxCount);
    },

    subscribeToAll(options: { after?: bigint } = {}): LogSubscription {
      assertOpen();
      checkAfter(options.after);
      const subscription = new PollingSubscription({
        after: options.after,
        readPage,
        notifier,
        pageSize: SUBSCRIPTION_PAGE_SIZE,
        pollIntervalMs: POLL_INTERVAL_MS,
        onEnd: (ended) => subscriptions.delete(ended),
      });
      subscriptions.add(subscription);
      return subscription;
    },

    async ping(): Promise<void> {
      assertOpen();
      selectOne.get();
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // Appends already accepted are written (and their promises resolved) before the file is
      // closed; live subscriptions end their iteration instead of failing on a closed handle.
      writer.drain();
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      db.close();
    },

    stats: () => writer.stats(),
  };
}

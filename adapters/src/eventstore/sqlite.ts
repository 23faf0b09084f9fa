/**
 * The embedded event store: one SQLite file, no server. Appends go to the group-commit writer
 * (sqlite-writer.ts), which runs in a worker thread with its own connection so that its COMMITs
 * and fsyncs do not block this thread (ADR 021); reads are plain indexed queries on this thread's
 * connection (WAL lets them run beside the writer); subscriptions catch up in pages and then
 * follow both this process's commits and, by polling, other processes writing to the file.
 */
import { Worker } from 'node:worker_threads';
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
import { type FromWriter, fromWireError, type ToWriter, type WireCall } from './sqlite-writer-protocol.js';
import { AppendNotifier, PollingSubscription } from './polling-subscription.js';
import { checkAfter, checkReadAll, checkReadStream, type PreparedStreamAppend, prepareAppend, prepareStreamAppends } from './validation.js';

/** Events per catch-up page of a subscription. */
export const SUBSCRIPTION_PAGE_SIZE = 500;
/** How often an idle subscription looks for events appended by other processes. */
export const POLL_INTERVAL_MS = 100;

export type SqliteEventStore = EventStore & { stats(): { transactions: number; appends: number } };

export function openSqliteEventStore(options: { file: string }): SqliteEventStore {
  // This connection creates the schema before the writer thread opens its own.
  const db = openLogDatabase(options.file);
  const notifier = new AppendNotifier();
  const writer = startWriterThread(options.file, () => notifier.notify());
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
      writer.enqueue(prepare(), resolve, reject);
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
      // Usable means writable too: the writer thread has opened its connection.
      await writer.ready;
      selectOne.get();
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      // Appends already accepted are written (and their promises resolved) before the file is
      // closed; live subscriptions end their iteration instead of failing on a closed handle.
      await writer.close();
      await Promise.all([...subscriptions].map((subscription) => subscription.close()));
      db.close();
    },

    stats: () => writer.stats(),
  };
}

interface WriterThread {
  enqueue(appends: PreparedStreamAppend[], resolve: (results: AppendResult[]) => void, reject: (error: unknown) => void): void;
  stats(): { transactions: number; appends: number };
  /** Settles once the thread has opened its connection (rejects when it could not). */
  ready: Promise<void>;
  /** Writes what is queued, then ends the thread; resolves once its connection is closed. */
  close(): Promise<void>;
}

/**
 * Starts the writer thread and speaks its protocol (sqlite-writer-protocol.ts). Calls issued in
 * one turn of this thread leave in one message (the setImmediate of ADR 002, moved here), so they
 * can share a group commit; the thread adds whatever arrives while it is committing.
 */
function startWriterThread(file: string, onCommitted: () => void): WriterThread {
  const worker = new Worker(new URL('./sqlite-writer-thread-boot.mjs', import.meta.url), { workerData: { file } });
  const waiting = new Map<number, { resolve: (results: AppendResult[]) => void; reject: (error: unknown) => void }>();
  let outgoing: WireCall[] = [];
  let scheduled = false;
  let nextCallId = 0;
  let counts = { transactions: 0, appends: 0 };
  let failure: Error | undefined;
  let onClosed: (() => void) | undefined;
  let markReady: (ready: Error | undefined) => void = () => undefined;
  const ready = new Promise<void>((resolve, reject) => {
    markReady = (error) => (error ? reject(error) : resolve());
  });
  // Nobody may be waiting for readiness; a failure also reaches every waiting append.
  ready.catch(() => undefined);
  // The thread keeps the process alive only while an answer is awaited, as a synchronous writer would.
  worker.unref();

  const post = (message: ToWriter) => worker.postMessage(message);
  const flush = () => {
    scheduled = false;
    if (outgoing.length === 0) return;
    post({ kind: 'calls', calls: outgoing });
    outgoing = [];
  };
  const failAll = (error: Error) => {
    failure ??= error;
    markReady(failure);
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
    onClosed?.();
  };

  worker.on('message', (message: FromWriter) => {
    if (message.kind === 'outcomes') {
      counts = message.stats;
      for (const outcome of message.outcomes) {
        const call = waiting.get(outcome.callId);
        waiting.delete(outcome.callId);
        if (!call) continue;
        if (outcome.ok) call.resolve(outcome.results);
        else call.reject(fromWireError(outcome.error));
      }
      if (waiting.size === 0) worker.unref();
      if (message.committed) onCommitted();
    } else if (message.kind === 'ready') markReady(undefined);
    else if (message.kind === 'failed') failAll(fromWireError(message.error));
    else if (message.kind === 'closed') onClosed?.();
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', () => failAll(new Error('The SQLite writer thread has stopped')));

  return {
    enqueue(appends, resolve, reject) {
      if (failure) {
        reject(failure);
        return;
      }
      const callId = nextCallId++;
      waiting.set(callId, { resolve, reject });
      if (waiting.size === 1) worker.ref();
      // Only the serialised form crosses; the thread writes nothing else.
      outgoing.push({
        callId,
        appends: appends.map((a) => ({
          streamId: a.streamId,
          expected: a.expected,
          events: a.events.map((e) => ({ id: e.id, type: e.type, dataJson: e.dataJson, metadataJson: e.metadataJson })),
        })),
      });
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    stats: () => ({ ...counts }),
    ready,
    async close() {
      if (failure) return;
      const closed = new Promise<void>((done) => {
        onClosed = done;
      });
      flush();
      worker.ref();
      post({ kind: 'close' });
      await closed;
      await worker.terminate();
    },
  };
}

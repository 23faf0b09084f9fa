/**
 * The writer thread of the SQLite event store: its own connection (synchronous = FULL) and the
 * group-commit writer of ADR 002, unchanged. better-sqlite3 is synchronous, so a batch's COMMIT
 * and fsync block only this thread; the main thread keeps serving requests (ADR 021). Each reply
 * is sent after the COMMIT that wrote (or refused) the calls it answers, so "resolved" still means
 * "durable".
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openLogDatabase } from './sqlite-schema.js';
import { GroupCommitWriter } from './sqlite-writer.js';
import { type FromWriter, type ToWriter, toWireError, type WireOutcome } from './sqlite-writer-protocol.js';

const port = parentPort;
if (!port) throw new Error('sqlite-writer-thread runs only as a worker thread');
const send = (message: FromWriter) => port.postMessage(message);

let db: ReturnType<typeof openLogDatabase>;
try {
  db = openLogDatabase((workerData as { file: string }).file);
} catch (error) {
  send({ kind: 'failed', error: toWireError(error) });
  throw error;
}

// Outcomes of one flush are settled synchronously by the writer; they leave in one message.
let outcomes: WireOutcome[] = [];
let committed = false;
let replyScheduled = false;
const writer = new GroupCommitWriter(db, () => {
  committed = true;
});
const reply = () => {
  replyScheduled = false;
  if (outcomes.length === 0) return;
  send({ kind: 'outcomes', outcomes, committed, stats: writer.stats() });
  outcomes = [];
  committed = false;
};
const settle = (outcome: WireOutcome) => {
  outcomes.push(outcome);
  if (replyScheduled) return;
  replyScheduled = true;
  queueMicrotask(reply);
};

port.on('message', (message: ToWriter) => {
  if (message.kind === 'close') {
    writer.drain();
    reply();
    db.close();
    send({ kind: 'closed' });
    port.close();
    return;
  }
  for (const call of message.calls) {
    writer.enqueue({
      // The writer reads only the serialised fields; the main thread kept the objects.
      appends: call.appends.map((a) => ({ ...a, events: a.events.map((e) => ({ ...e, data: {}, metadata: {} })) })),
      resolve: (results) => settle({ callId: call.callId, ok: true, results }),
      reject: (error) => settle({ callId: call.callId, ok: false, error: toWireError(error) }),
    });
  }
});
send({ kind: 'ready' });

/**
 * A model of what a KurrentDB 25.x server answers to appends, for unit tests of the adapter's
 * retry handling where no server runs. It follows the server's own rules (IndexWriter.CheckCommit
 * and StorageWriterService.VerifyCommitChecks, ADR 018): exact revisions are checked against the
 * events at r + 1 ...; 'any' only against an id cache that tests can empty; multi-stream appends
 * are judged as a whole. It models appends and stream reads only, nothing else of the client.
 */
import {
  type AppendStreamRequest,
  type AppendStreamState,
  type KurrentDBClient,
  type MultiAppendResult,
  StreamNotFoundError,
  UnknownError,
  WrongExpectedVersionError,
} from '@kurrent/kurrentdb-client';
import type { KurrentRecordedEvent } from '../../src/eventstore/kurrentdb-mapping.js';

type Decision = { kind: 'ok' | 'wrong' | 'corrupted'; current: bigint } | { kind: 'idempotent'; current: bigint; end: bigint };

interface EventLike {
  id: string;
  type: string;
  data: unknown;
  metadata?: unknown;
}

/** Byte offsets between records, so positions look like KurrentDB's, not like 1, 2, 3. */
const RECORD_BYTES = 137n;

export class FakeKurrentServer {
  readonly streams = new Map<string, KurrentRecordedEvent[]>();
  /** The server's bounded cache of recently committed ids: id → (stream, revision). */
  readonly idCache = new Map<string, { streamId: string; revision: bigint }>();
  readonly calls: { op: 'append' | 'multi'; states: AppendStreamState[] }[] = [];
  #position = 1_000n;

  #last(streamId: string): bigint {
    return this.streams.get(streamId)?.at(-1)?.revision ?? -1n;
  }

  #check(streamId: string, state: AppendStreamState, ids: string[]): Decision {
    const current = this.#last(streamId);
    if (state === 'any') {
      for (const [i, id] of ids.entries()) {
        const cached = this.idCache.get(id);
        if (!cached || cached.streamId !== streamId) return { kind: i === 0 ? 'ok' : 'corrupted', current };
      }
      return { kind: 'idempotent', current, end: this.idCache.get(ids.at(-1) ?? '')?.revision ?? -1n };
    }
    if (state === 'stream_exists') throw new Error('not modelled');
    const expected = state === 'no_stream' ? -1n : state;
    if (expected < current) {
      const events = this.streams.get(streamId) ?? [];
      for (const [i, id] of ids.entries()) {
        if (events[Number(expected) + 1 + i]?.id !== id) return { kind: i === 0 ? 'wrong' : 'corrupted', current };
      }
      return { kind: 'idempotent', current, end: expected + BigInt(ids.length) };
    }
    return { kind: expected > current ? 'wrong' : 'ok', current };
  }

  #write(streamId: string, events: EventLike[]): bigint {
    const stream = this.streams.get(streamId) ?? [];
    this.streams.set(streamId, stream);
    for (const event of events) {
      this.#position += RECORD_BYTES;
      const revision = BigInt(stream.length);
      const { metadata } = event;
      stream.push({
        streamId,
        id: event.id,
        revision,
        type: event.type,
        created: new Date(0),
        isJson: true,
        data: event.data,
        metadata,
        position: { commit: this.#position, prepare: this.#position },
      });
      this.idCache.set(event.id, { streamId, revision });
    }
    return this.#last(streamId);
  }

  #positionAt(streamId: string, revision: bigint): bigint {
    const position = this.streams.get(streamId)?.[Number(revision)]?.position?.commit;
    if (position === undefined) throw new Error(`fake server: no event ${revision} in ${streamId}`);
    return position;
  }

  #refusal(streamId: string, state: AppendStreamState, current: bigint): WrongExpectedVersionError {
    const expectedRevision = state === 'no_stream' ? '-1' : state === 'any' ? '-2' : String(state);
    return WrongExpectedVersionError.fromRevisionConflict({ stream: streamId, expectedRevision, actualRevision: String(current) });
  }

  appendToStream(streamId: string, events: EventLike[], options: { streamState: AppendStreamState }) {
    this.calls.push({ op: 'append', states: [options.streamState] });
    const decision = this.#check(
      streamId,
      options.streamState,
      events.map((e) => e.id),
    );
    if (decision.kind === 'wrong' || decision.kind === 'corrupted') throw this.#refusal(streamId, options.streamState, decision.current);
    const revision = decision.kind === 'idempotent' ? decision.end : this.#write(streamId, events);
    const position = this.#positionAt(streamId, revision);
    return Promise.resolve({ success: true, nextExpectedRevision: revision, position: { commit: position, prepare: position } });
  }

  multiStreamAppend(requests: AppendStreamRequest[]): Promise<MultiAppendResult> {
    this.calls.push({ op: 'multi', states: requests.map((r) => r.expectedState) });
    const decisions = requests.map((r) =>
      this.#check(
        r.streamName,
        r.expectedState,
        r.events.map((e) => e.id),
      ),
    );
    const kinds = new Set(decisions.map((d) => d.kind));
    const idempotent = decisions.flatMap((d) => (d.kind === 'idempotent' ? [d.end] : []));
    if (kinds.has('corrupted') || (kinds.has('idempotent') && kinds.size > 1)) {
      // The server names no stream here; the client surfaces what it can.
      return Promise.reject(new UnknownError(undefined, 'wrong expected version (no stream named)'));
    }
    const stale = decisions.findIndex((d) => d.kind === 'wrong');
    const staleRequest = requests[stale];
    if (staleRequest)
      return Promise.reject(this.#refusal(staleRequest.streamName, staleRequest.expectedState, decisions[stale]?.current ?? -1n));
    const revisions =
      idempotent.length === requests.length ? idempotent : requests.map((r) => this.#write(r.streamName, r.events as EventLike[]));
    return Promise.resolve({
      position: this.#position,
      responses: requests.map((r, i) => ({ streamName: r.streamName, revision: revisions[i] ?? -1n })),
    });
  }

  readStream(streamId: string, options: { fromRevision: bigint | 'start' | 'end'; direction: 'forwards' | 'backwards'; maxCount: number }) {
    const stream = this.streams.get(streamId);
    return (async function* () {
      if (!stream) throw new StreamNotFoundError(undefined, streamId);
      const ordered = options.direction === 'backwards' ? [...stream].reverse() : stream;
      const from = options.fromRevision;
      const selected = ordered.filter((e) => {
        if (typeof from !== 'bigint') return true;
        return options.direction === 'backwards' ? e.revision <= from : e.revision >= from;
      });
      for (const event of selected.slice(0, options.maxCount)) yield { event };
    })();
  }

  /** The fake as the client type the adapter expects (it only calls the methods above). */
  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }
}

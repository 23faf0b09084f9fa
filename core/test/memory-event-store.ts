/**
 * An event store held in memory, for core's unit tests (not exported from the package): the
 * port's append, appendToStreams and readStream with its expected-revision rule, and a hook to
 * let another writer in just before an append is checked (to stage lost races).
 */
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../src/shared/ports/event-store.js';

export class MemoryEventStore implements Pick<EventStore, 'append' | 'appendToStreams' | 'readStream'> {
  readonly #streams = new Map<string, RecordedEvent[]>();
  #position = 0n;
  /** Appends attempted, conflicting or not. */
  appendCalls = 0;
  /** Runs before each append is checked: a test appends here as a concurrent writer would. */
  beforeAppend: ((appends: StreamAppend[]) => void) | undefined;

  async append(streamId: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    const [result] = await this.appendToStreams([{ streamId, events, expectedRevision }]);
    if (!result) throw new Error('append recorded nothing');
    return result;
  }

  async appendToStreams(appends: StreamAppend[]): Promise<AppendResult[]> {
    this.appendCalls += 1;
    this.beforeAppend?.(appends);
    for (const { streamId, expectedRevision } of appends) {
      const actual = this.#lastRevision(streamId);
      const holds = expectedRevision === 'any' || expectedRevision === actual;
      if (!holds) throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
    }
    return appends.map(({ streamId, events }) => this.record(streamId, events));
  }

  /** Appends without any check (a test's setup, or the concurrent writer). */
  record(streamId: string, events: NewEvent[]): AppendResult {
    const stream = this.#streams.get(streamId) ?? [];
    for (const event of events) {
      this.#position += 1n;
      stream.push({
        id: event.id ?? `event-${this.#position}`,
        streamId,
        revision: BigInt(stream.length),
        position: this.#position,
        type: event.type,
        // Through JSON, as every event read from a real store arrives.
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: event.metadata ?? {},
        recordedAt: new Date(0).toISOString(),
      });
    }
    this.#streams.set(streamId, stream);
    return { nextExpectedRevision: BigInt(stream.length - 1), position: this.#position };
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const from = Number(options.fromRevision ?? 0n);
    const stream = this.#streams.get(streamId) ?? [];
    return stream.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
  }

  #lastRevision(streamId: string): bigint | 'no_stream' {
    const length = this.#streams.get(streamId)?.length ?? 0;
    return length === 0 ? 'no_stream' : BigInt(length - 1);
  }
}

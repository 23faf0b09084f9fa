/**
 * An event store held in memory, for core's unit tests (not exported from the package): the
 * port's append, appendToStreams and readStream with its expected-revision rule, readAll in log
 * order (so a test audits the log as `npm run audit` reads it), and a hook to let another writer
 * in just before an append is checked (to stage lost races). It has no live feed: a unit test that
 * needs one is an integration test.
 */
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type LogSubscription,
  type NewEvent,
  type ReadAllOptions,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from '../src/shared/ports/event-store.js';

export class MemoryEventStore implements EventStore {
  readonly #streams = new Map<string, RecordedEvent[]>();
  /** Every event in position order, as readAll pages it. */
  readonly #log: RecordedEvent[] = [];
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
      const recorded: RecordedEvent = {
        id: event.id ?? `event-${this.#position}`,
        streamId,
        revision: BigInt(stream.length),
        position: this.#position,
        type: event.type,
        // Through JSON, as every event read from a real store arrives.
        data: JSON.parse(JSON.stringify(event.data)),
        metadata: event.metadata ?? {},
        recordedAt: new Date(0).toISOString(),
      };
      stream.push(recorded);
      this.#log.push(recorded);
    }
    this.#streams.set(streamId, stream);
    return { nextExpectedRevision: BigInt(stream.length - 1), position: this.#position };
  }

  async readStream(streamId: string, options: { fromRevision?: bigint; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const from = Number(options.fromRevision ?? 0n);
    const stream = this.#streams.get(streamId) ?? [];
    return stream.slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
  }

  async readAll(options: ReadAllOptions): Promise<RecordedEvent[]> {
    // Positions start at 1 and have no gaps, so the event after position p is at index p.
    const from = Number(options.after ?? 0n);
    return this.#log.slice(from, from + options.maxCount);
  }

  subscribeToAll(): LogSubscription {
    throw new Error('MemoryEventStore has no live feed');
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  #lastRevision(streamId: string): bigint | 'no_stream' {
    const length = this.#streams.get(streamId)?.length ?? 0;
    return length === 0 ? 'no_stream' : BigInt(length - 1);
  }
}

/**
 * The one command pipeline (ADR 063), after Emmett's CommandHandler: read the stream, parse every
 * recorded event with its schema, fold with evolve from the initial state, decide on that state
 * and the clock's now, append at the revision decided on, and on a lost race on the command's own
 * streams decide again, at most COMMAND_CONFLICT_RETRIES times, before answering "busy".
 * Pure orchestration over the EventStore port: no timers, no other I/O.
 */
import { z } from 'zod';
import type { Clock } from './clock.js';
import { AppError } from './errors.js';
import {
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedRevisionError,
} from './ports/event-store.js';

/**
 * Times a command decides again after another writer appended to one of its own streams first.
 * One bound for every command (eight attempts in all, as the wallet had): past it the stream is
 * contended enough that the caller is better told "busy" than kept waiting.
 */
export const COMMAND_CONFLICT_RETRIES = 7;

/** How a stream's events become a state. */
export interface StreamModel<State, Event> {
  initialState(): State;
  /**
   * The state after one event. `recorded` is the event as the log holds it when the fold reads it
   * from the store (a model that keeps log positions reads them there); absent for events the
   * caller folds itself.
   */
  evolve(state: State, event: Event, recorded?: RecordedEvent): State;
  /**
   * The event a recorded event holds, parsed with its schema; undefined for an event of a type
   * another capability owns on a shared stream (it is skipped). Throws UnreadableEventError for
   * anything else: a fold never guesses.
   */
  parse(recorded: RecordedEvent): Event | undefined;
}

/** A recorded event the stream's model cannot read: an unknown type, or data not of its type's shape. */
export class UnreadableEventError extends Error {
  constructor(recorded: Pick<RecordedEvent, 'type' | 'streamId' | 'revision'>) {
    super(`Unreadable ${recorded.type} at ${recorded.streamId}@${recorded.revision}`);
    this.name = 'UnreadableEventError';
  }
}

/** An event as a capability declares it: a past-tense type and its data. */
export interface TypedEvent {
  type: string;
  data: unknown;
}

/** One zod schema per event type, each parsing the whole event ({ type, data }). */
export type EventSchemas<Event extends TypedEvent> = { [Type in Event['type']]: z.ZodType<Extract<Event, { type: Type }>> };

/** A whole event's schema from its type and its data's schema: a parse yields the event itself, not a cast. */
export const eventSchemaOf = <Type extends string, Data extends z.ZodType>(type: Type, data: Data) =>
  z.object({ type: z.literal(type), data });

/**
 * A model's parse from a schema per event type. Types in `skip` (another capability's events on
 * a shared stream) are passed over; any other unknown type, or data that fails its schema, is
 * refused with UnreadableEventError.
 */
export function eventParser<Event extends TypedEvent>(
  schemas: EventSchemas<Event>,
  skip: (type: string) => boolean = () => false,
): (recorded: RecordedEvent) => Event | undefined {
  const isKnown = (type: string): type is Event['type'] => Object.hasOwn(schemas, type);
  return (recorded) => {
    if (!isKnown(recorded.type)) {
      if (skip(recorded.type)) return undefined;
      throw new UnreadableEventError(recorded);
    }
    const parsed = schemas[recorded.type].safeParse({ type: recorded.type, data: recorded.data });
    if (!parsed.success) throw new UnreadableEventError(recorded);
    return parsed.data;
  };
}

/**
 * A model's parse from a capability's own reader (type + data → event, or undefined when it
 * cannot read it): what the reader cannot read is refused, unless `skip` names its type.
 */
export function strictParser<Event>(
  read: (recorded: RecordedEvent) => Event | undefined,
  skip: (type: string) => boolean = () => false,
): (recorded: RecordedEvent) => Event | undefined {
  return (recorded) => {
    const event = read(recorded);
    if (event !== undefined || skip(recorded.type)) return event;
    throw new UnreadableEventError(recorded);
  };
}

/** Folds recorded events onto a state with the model (the one fold loop). */
export function foldRecorded<State, Event>(model: StreamModel<State, Event>, state: State, records: readonly RecordedEvent[]): State {
  let next = state;
  for (const record of records) {
    const event = model.parse(record);
    if (event !== undefined) next = model.evolve(next, event, record);
  }
  return next;
}

/** Folds events already parsed (ones this process appended) onto a state. */
export function foldEvents<State, Event>(model: Pick<StreamModel<State, Event>, 'evolve'>, state: State, events: readonly Event[]): State {
  let next = state;
  for (const event of events) next = model.evolve(next, event);
  return next;
}

export interface StreamState<State> {
  state: State;
  /** The revision to append at: the stream's last event's, or 'no_stream' when it has none. */
  revision: ExpectedRevision;
}

/** Reads a whole stream and folds it: for queries, loaders and the default load of a command. */
export async function readState<State, Event>(
  store: Pick<EventStore, 'readStream'>,
  streamId: string,
  model: StreamModel<State, Event>,
  /** Fold only up to this revision (inclusive): the stream as it was right after that event (ADR 071). */
  options: { upToRevision?: bigint } = {},
): Promise<StreamState<State> & { events: RecordedEvent[] }> {
  const { upToRevision } = options;
  const events = await store.readStream(streamId, upToRevision === undefined ? {} : { maxCount: Number(upToRevision) + 1 });
  const last = events[events.length - 1];
  return { state: foldRecorded(model, model.initialState(), events), revision: last ? last.revision : 'no_stream', events };
}

/**
 * A load for decideAndAppend that starts from a state its caller already folded (a long stream it
 * read once) and, on every attempt after the first, reads only the events appended after the
 * revision it knows and folds them on: a lost race on a busy stream costs its few new events, not
 * a read of the whole stream again.
 */
export function catchUpLoad<State, Event>(
  store: Pick<EventStore, 'readStream'>,
  streamId: string,
  model: StreamModel<State, Event>,
  from: { state: State; revision: bigint | 'no_stream' },
): (current: boolean) => Promise<LoadedState<State>> {
  let known = from;
  return async (current) => {
    if (!current) return { ...known, current: false };
    const newer = await store.readStream(streamId, { fromRevision: known.revision === 'no_stream' ? 0n : known.revision + 1n });
    known = { state: foldRecorded(model, known.state, newer), revision: newer.at(-1)?.revision ?? known.revision };
    return { ...known, current: true };
  };
}

/** What a decider answers: the events to append (none: nothing to do) and what the caller gets back. */
export interface Decision<Event, Result> {
  events: Event[];
  result: Result;
}

/** The state a command decides on. */
export interface LoadedState<State> extends StreamState<State> {
  /**
   * False when the state came from a cache without reading the stream (ADR 022): a refusal
   * decided on it is only answered after deciding again on the stream as it is.
   */
  current?: boolean;
}

export interface CommandOptions<State, Event, Result> {
  /**
   * Loads the state to decide on instead of readState (a cache, snapshots). `current` is false
   * on the first attempt, when a cache may answer; true on every attempt after a conflict or a
   * refusal decided on a state that was not current, which must read what other writers appended.
   */
  load?: (current: boolean) => Promise<LoadedState<State>>;
  /**
   * Other streams this command loaded and decided on (a transfer's payee): appended in the same
   * atomic call; a conflict on one of them is decided again like one on the command's stream.
   */
  ownAppends?: (decision: Decision<Event, Result>, loaded: LoadedState<State>) => StreamAppend[];
  /**
   * Streams decided by the caller, appended in the same atomic call (the multi-stream form, ADR
   * 033). A conflict on one of them is rethrown as it is: only the caller can read it again.
   */
  companions?: (decision: Decision<Event, Result>, loaded: LoadedState<State>) => StreamAppend[];
  /** After a successful append (a cache takes the appended events). */
  onAppended?: (decision: Decision<Event, Result>, loaded: LoadedState<State>) => void;
  /**
   * Appends the command's own streams (its events first, then ownAppends) in place of the
   * store's append, when another command carries them as its companions (a checkout's
   * CheckoutPaid beside its transfer). A WrongExpectedRevisionError naming one of them is a lost
   * race, decided again; 'alreadyRecorded' says the other command found its own part recorded
   * already (our stream moved with it), which is decided again too. `companions` are not used.
   */
  appendWith?: (
    appends: StreamAppend[],
    decision: Decision<Event, Result>,
    loaded: LoadedState<State>,
  ) => Promise<Appended | 'alreadyRecorded'>;
  /** After an append failed other than by a conflict: its outcome is unknown (a cache forgets). */
  onAppendFailed?: () => void;
}

export interface Handled<State, Event, Result> {
  result: Result;
  /** The events appended (none when the decision had nothing to do). */
  events: Event[];
  /** The state decided on (before the events). */
  state: State;
  /** The loaded state the decision was made on, with its revision. */
  loaded: LoadedState<State>;
  /** Log position of the last event appended; undefined when nothing was appended. */
  position?: bigint;
  /** Revision of the command's stream after the append; undefined when nothing was appended. */
  nextExpectedRevision?: bigint;
}

/**
 * Loads, decides and appends one command on `streamId`, deciding again (bounded by
 * COMMAND_CONFLICT_RETRIES) when another writer appended to one of its own streams first.
 * `decide` throws an AppError to refuse; a refusal decided on a cached state is decided again on
 * the current one first.
 */
export function handleCommand<State, Event extends NewEvent, Result>(
  deps: CommandDeps,
  streamId: string,
  model: StreamModel<State, Event>,
  decide: (state: State, now: Date) => Decision<Event, Result>,
  options: CommandOptions<State, Event, Result> = {},
): Promise<Handled<State, Event, Result>> {
  const load = options.load ?? (() => readState(deps.store, streamId, model));
  return decideAndAppend(deps, streamId, load, decide, options);
}

export interface CommandDeps {
  store: Pick<EventStore, 'readStream' | 'append' | 'appendToStreams'>;
  clock: Clock;
}

/**
 * handleCommand over a state its caller loads (several streams decided together, such as a
 * transfer's payer and payee): `load(current)` is called on every attempt.
 */
export async function decideAndAppend<State, Event extends NewEvent, Result>(
  deps: CommandDeps,
  streamId: string,
  load: (current: boolean) => Promise<LoadedState<State>>,
  decide: (state: State, now: Date) => Decision<Event, Result>,
  options: Omit<CommandOptions<State, Event, Result>, 'load'> = {},
): Promise<Handled<State, Event, Result>> {
  let current = false;
  for (let retries = 0; ; ) {
    const loaded = await load(current);
    const decision = decideOnLoaded(loaded, (state) => decide(state, deps.clock.now()));
    if (!decision) {
      current = true;
      continue;
    }
    const handled = { result: decision.result, events: decision.events, state: loaded.state, loaded };
    if (decision.events.length === 0) return handled;
    const main: StreamAppend = { streamId, events: decision.events, expectedRevision: loaded.revision };
    const own = options.ownAppends?.(decision, loaded) ?? [];
    const companions = options.companions?.(decision, loaded) ?? [];
    const ownStreams = new Set([streamId, ...own.map((append) => append.streamId)]);
    try {
      const appended = options.appendWith
        ? await options.appendWith([main, ...own], decision, loaded)
        : lastOf(await appendAll(deps.store, main, [...own, ...companions]));
      if (appended !== 'alreadyRecorded') {
        options.onAppended?.(decision, loaded);
        return { ...handled, position: appended.position, nextExpectedRevision: appended.nextExpectedRevision };
      }
      // Another writer recorded this very decision after our read: decide again on what it wrote.
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) {
        options.onAppendFailed?.();
        throw error;
      }
      // Nothing was appended. A companion's stream moved, which only the caller can read again.
      if (!ownStreams.has(error.streamId)) throw error;
    }
    current = true;
    retries += 1;
    if (retries > COMMAND_CONFLICT_RETRIES) throw new AppError('CONCURRENCY', 'errors:busy');
  }
}

/** Where the command's append left its stream and the log. */
export interface Appended {
  /** Log position of the last event appended. */
  position: bigint;
  /** Revision of the command's stream after the append, when known. */
  nextExpectedRevision?: bigint;
}

/** The command's stream's revision (the first result) and the log position of the last one. */
function lastOf(results: AppendResult[]): Appended {
  const last = results.at(-1);
  if (!last) throw new Error('an append answered no result');
  return { position: last.position, nextExpectedRevision: results[0]?.nextExpectedRevision };
}

/** Decides; undefined when it refused on a state that was not current, to be decided again on current state. */
function decideOnLoaded<State, T>(loaded: LoadedState<State>, decideNow: (state: State) => T): T | undefined {
  try {
    return decideNow(loaded.state);
  } catch (error) {
    if (error instanceof AppError && loaded.current === false) return undefined;
    throw error;
  }
}

/** One stream: a plain append; with others: one atomic appendToStreams, results in the same order. */
async function appendAll(
  store: Pick<EventStore, 'append' | 'appendToStreams'>,
  main: StreamAppend,
  others: StreamAppend[],
): Promise<AppendResult[]> {
  if (others.length === 0) return [await store.append(main.streamId, main.events, main.expectedRevision)];
  return store.appendToStreams([main, ...others]);
}

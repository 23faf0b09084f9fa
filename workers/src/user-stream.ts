/**
 * What e-mail jobs need from a user's stream: all of it (read in bounded pages), and a way to
 * record a completion event exactly once even when two runs of the same job overlap.
 */
import {
  catchUpLoad,
  decideAndAppend,
  type CommandDeps,
  type EventStore,
  type NewEvent,
  type RecordedEvent,
  type StreamModel,
} from '@quern/core';
import { userStream } from '@quern/core/identity';

const PAGE_SIZE = 500;
/** Far above any real account (sign-ins are the bulk); past it something is wrong, not slow. */
const MAX_EVENTS = 100_000;

export async function readUserStream(store: EventStore, userId: string, fromRevision = 0n): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  let next = fromRevision;
  for (;;) {
    const page = await store.readStream(userStream(userId), { fromRevision: next, maxCount: PAGE_SIZE });
    events.push(...page);
    if (events.length > MAX_EVENTS) throw new Error(`User stream ${userId} holds more than ${MAX_EVENTS} events`);
    const last = page.at(-1);
    if (!last || page.length < PAGE_SIZE) return events;
    next = last.revision + 1n;
  }
}

/** A user stream folded down to one question: does it hold the completion yet? */
const completionModel = (isCompletion: (event: RecordedEvent) => boolean): StreamModel<boolean, RecordedEvent> => ({
  initialState: () => false,
  evolve: (recorded, event) => recorded || isCompletion(event),
  parse: (event) => event,
});

/**
 * Appends the completion unless the stream already holds one, through core's command pipeline:
 * the append expects the revision the check was made against, so if another run appended
 * meanwhile the append fails, only the newer events are read (the stream holds every sign-in),
 * and the check is made again. Two overlapping runs cannot both record it.
 */
export async function appendCompletionOnce(
  deps: CommandDeps,
  userId: string,
  seen: readonly RecordedEvent[],
  completion: NewEvent,
  isCompletion: (event: RecordedEvent) => boolean,
): Promise<'appended' | 'already-recorded'> {
  const last = seen.at(-1);
  if (!last) throw new Error(`User stream ${userId} is empty`);
  const streamId = userStream(userId);
  const load = catchUpLoad(deps.store, streamId, completionModel(isCompletion), {
    state: seen.some(isCompletion),
    revision: last.revision,
  });
  const handled = await decideAndAppend(deps, streamId, load, (recorded) =>
    recorded ? { events: [], result: 'already-recorded' as const } : { events: [completion], result: 'appended' as const },
  );
  return handled.result;
}

/**
 * Whether the account's owner proved its e-mail address (ADR 046). Until then no mail but the
 * verification (and the reset link, which proves it as well) goes to the address.
 */
export const emailVerifiedIn = (events: readonly RecordedEvent[]): boolean => events.some((event) => event.type === 'EmailVerified');

/** The account's address when its owner proved it, else undefined; reads the whole stream. */
export async function verifiedEmailOf(store: EventStore, userId: string): Promise<string | undefined> {
  const events = await readUserStream(store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  const email = registered?.data.email;
  return typeof email === 'string' && emailVerifiedIn(events) ? email : undefined;
}

/**
 * What e-mail jobs need from a user's stream: all of it (read in bounded pages), and a way to
 * record a completion event exactly once even when two runs of the same job overlap.
 */
import type { EventStore, NewEvent, RecordedEvent } from '@quern/core';
import { userStream } from '@quern/core/identity';

const PAGE_SIZE = 500;
/** Far above any real account (sign-ins are the bulk); past it something is wrong, not slow. */
const MAX_EVENTS = 100_000;
/** Appends lost to concurrent activity on the stream (sign-ins) before giving up for a retry. */
const MAX_APPEND_ATTEMPTS = 5;

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

const isWrongExpectedRevision = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'WRONG_EXPECTED_REVISION';

/**
 * Appends the completion unless the stream already holds one. The append expects the revision
 * the check was made against, so if another run appended meanwhile the append fails, the new
 * events are read, and the check is made again: two overlapping runs cannot both record it.
 */
export async function appendCompletionOnce(
  store: EventStore,
  userId: string,
  seen: readonly RecordedEvent[],
  completion: NewEvent,
  isCompletion: (event: RecordedEvent) => boolean,
): Promise<'appended' | 'already-recorded'> {
  let last = seen.at(-1);
  if (!last) throw new Error(`User stream ${userId} is empty`);
  for (let attempt = 1; attempt <= MAX_APPEND_ATTEMPTS; attempt += 1) {
    try {
      await store.append(userStream(userId), [completion], last.revision);
      return 'appended';
    } catch (error) {
      if (!isWrongExpectedRevision(error)) throw error;
      const newer = await readUserStream(store, userId, last.revision + 1n);
      if (newer.some(isCompletion)) return 'already-recorded';
      last = newer.at(-1) ?? last;
    }
  }
  throw new Error(`User stream ${userId} kept changing; the completion will be retried`);
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

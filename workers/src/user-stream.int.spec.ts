// Proves an e-mail job's completion is recorded once on a real log: two runs that read the same stream record it once, a run that lost its race to sign-ins reads only the newer events and still records it, and an empty stream is refused.
import { systemClock, type EventStore, type RecordedEvent } from '@quern/core';
import { userStream } from '@quern/core/identity';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerUser } from '../test/identity-events.js';
import { openTempStore, type TempStore } from '../test/store.js';
import { appendCompletionOnce, readUserStream } from './user-stream.js';

let temp: TempStore;
beforeEach(() => {
  temp = openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

const isCompletion = (event: RecordedEvent): boolean => event.type === 'WelcomeEmailSent';
const completion = (userId: string, messageId: string) => ({
  type: 'WelcomeEmailSent',
  data: { userId, messageId, sentAt: new Date().toISOString() },
});
const signIn = (userId: string) => ({ type: 'UserSignedIn', data: { userId, signedInAt: new Date().toISOString() } });

/** The store, with the first revision each read of the user stream asked for. */
function readCounting(store: EventStore): { store: EventStore; readsFrom: (bigint | undefined)[] } {
  const readsFrom: (bigint | undefined)[] = [];
  const counting: EventStore = Object.create(store);
  counting.readStream = (streamId, options) => {
    readsFrom.push(options?.fromRevision);
    return store.readStream(streamId, options);
  };
  return { store: counting, readsFrom };
}

describe('appendCompletionOnce', () => {
  it('given two runs that read the same stream, when both record their completion, then the log holds one', async () => {
    const { userId } = await registerUser(temp.store, 1);
    const seen = await readUserStream(temp.store, userId);
    const deps = { store: temp.store, clock: systemClock };

    const outcomes = await Promise.all([
      appendCompletionOnce(deps, userId, seen, completion(userId, 'first'), isCompletion),
      appendCompletionOnce(deps, userId, seen, completion(userId, 'second'), isCompletion),
    ]);

    expect(outcomes.sort()).toEqual(['already-recorded', 'appended']);
    expect((await readUserStream(temp.store, userId)).filter(isCompletion)).toHaveLength(1);
  });

  it('given sign-ins after the read, when the completion is recorded, then only the newer events are read and it is recorded once', async () => {
    const { userId } = await registerUser(temp.store, 2);
    const seen = await readUserStream(temp.store, userId);
    const lastSeen = seen.at(-1)?.revision ?? -1n;
    await temp.store.append(userStream(userId), [signIn(userId), signIn(userId)], 'any');
    const { store, readsFrom } = readCounting(temp.store);

    const outcome = await appendCompletionOnce({ store, clock: systemClock }, userId, seen, completion(userId, 'late'), isCompletion);

    expect(outcome).toBe('appended');
    expect(readsFrom).toEqual([lastSeen + 1n]);
    const events = await readUserStream(temp.store, userId);
    expect(events.filter(isCompletion)).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('WelcomeEmailSent');
  });

  it('given nothing read, when asked to record, then it refuses: a job always reads its user first', async () => {
    const deps = { store: temp.store, clock: systemClock };
    await expect(appendCompletionOnce(deps, 'nobody', [], completion('nobody', 'x'), isCompletion)).rejects.toThrow(
      'User stream nobody is empty',
    );
  });
});

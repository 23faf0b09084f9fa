/**
 * The event store as every Quern process uses it (ADR 042): personal-data fields (the rules in
 * @quern/core/personal-data) are sealed with their owner's key on the way in and opened on the
 * way out, so the domain code reads and writes plain events and the log holds ciphertext. Once
 * an account is forgotten its fields read as ERASED, and an event appended about it afterwards
 * stores ERASED instead of the value. Values recorded before sealing existed pass through as
 * they are (the migration in migrate.ts seals them).
 */
import { type EventStore, type LogSubscription, type NewEvent, type RecordedEvent, WrongExpectedRevisionError } from '@quern/core';
import {
  digestedIdentityKeyStream,
  ERASED,
  IDENTITY_KEY_STREAM,
  isSealed,
  personalDataRules,
  sealingContext,
} from '@quern/core/personal-data';
import { log } from '../runtime/logger.js';
import { openString, sealString } from './cipher.js';
import type { KeyVault } from './key-vault.js';

export interface SealingEventStore extends EventStore {
  readonly personalData: KeyVault;
}

export function sealEvent<E extends NewEvent>(vault: KeyVault, event: E): E {
  const rule = personalDataRules[event.type];
  const owner = rule?.owner(event.data);
  if (!rule || owner === undefined) return event;
  const data = { ...event.data };
  let key: Buffer | undefined;
  let looked = false;
  for (const field of rule.fields) {
    const value = data[field];
    if (typeof value !== 'string' || isSealed(value) || value === ERASED) continue;
    if (!looked) {
      key = vault.sealingKey(owner);
      looked = true;
    }
    data[field] = key ? sealString(key, sealingContext(event.type, owner, field), value) : ERASED;
  }
  return { ...event, data };
}

const ACCOUNT_DELETED = 'UserAccountDeleted';

/**
 * The deletion handler forgets the key right after recording UserAccountDeleted; a process that
 * died between the two would leave the key behind, so every reader of the log (the projections
 * read all of it continuously) finishes the deletion when it meets the event.
 */
function finishDeletion(vault: KeyVault, event: { type: string; data: Record<string, unknown> }): void {
  if (event.type === ACCOUNT_DELETED && typeof event.data.userId === 'string' && vault.openingKey(event.data.userId)) {
    const userId = event.data.userId;
    // The next reader tries again; a failure here must not fail the read.
    vault
      .forget(userId)
      .catch((error: unknown) => log.error({ part: 'personal-data', userId, err: error }, 'could not forget the key of a deleted account'));
  }
}

export function openEvent(vault: KeyVault, event: RecordedEvent): RecordedEvent {
  finishDeletion(vault, event);
  const rule = personalDataRules[event.type];
  const owner = rule?.owner(event.data);
  if (!rule || owner === undefined) return event;
  let data: Record<string, unknown> | undefined;
  let key: Buffer | undefined;
  let looked = false;
  for (const field of rule.fields) {
    const value = event.data[field];
    if (!isSealed(value)) continue;
    if (!looked) {
      key = vault.openingKey(owner);
      looked = true;
    }
    data ??= { ...event.data };
    data[field] = key ? openString(key, sealingContext(event.type, owner, field), value) : ERASED;
  }
  return data ? { ...event, data } : event;
}

/** The name the log records a stream under: identity-key streams by digest, others as they are. */
export function storedStreamName(vault: KeyVault, streamId: string): string {
  const key = IDENTITY_KEY_STREAM.exec(streamId);
  return key ? digestedIdentityKeyStream(key[1] as string, vault.keyDigest(key[1] as string, key[2] as string)) : streamId;
}

export function withPersonalDataSealing(inner: EventStore, vault: KeyVault): SealingEventStore {
  const seal = (events: NewEvent[]) => events.map((event) => sealEvent(vault, event));
  const open = (events: RecordedEvent[]) => events.map((event) => openEvent(vault, event));
  const stored = (streamId: string) => storedStreamName(vault, streamId);
  return {
    personalData: vault,
    append: (streamId, events, expectedRevision) => {
      const storedAs = stored(streamId);
      return namedAsCalled(inner.append(storedAs, seal(events), expectedRevision), new Map([[storedAs, streamId]]));
    },
    appendToStreams: (appends) => {
      const storedAs = appends.map((a) => stored(a.streamId));
      return namedAsCalled(
        inner.appendToStreams(appends.map((a, i) => ({ ...a, streamId: storedAs[i] as string, events: seal(a.events) }))),
        new Map(appends.map((a, i) => [storedAs[i] as string, a.streamId])),
      );
    },
    // Read back under the name the caller used, so the domain never sees a digest.
    readStream: async (streamId, options) =>
      open(await inner.readStream(stored(streamId), options)).map((event) =>
        event.streamId === streamId ? event : { ...event, streamId },
      ),
    readAll: async (options) => open(await inner.readAll(options)),
    subscribeToAll: (options) => openedSubscription(inner.subscribeToAll(options), vault),
    ping: () => inner.ping(),
    close: async () => {
      try {
        await inner.close();
      } finally {
        vault.close();
      }
    },
  };
}

/**
 * A lost race names the stream as its caller did, not by its digest: the command pipeline decides
 * again only on a conflict on its own streams (ADR 063), and it knows them by their plain names.
 */
async function namedAsCalled<T>(appending: Promise<T>, calledAs: ReadonlyMap<string, string>): Promise<T> {
  try {
    return await appending;
  } catch (error) {
    const name = error instanceof WrongExpectedRevisionError ? calledAs.get(error.streamId) : undefined;
    if (error instanceof WrongExpectedRevisionError && name !== undefined && name !== error.streamId)
      throw new WrongExpectedRevisionError(name, error.expected, error.actual);
    throw error;
  }
}

function openedSubscription(inner: LogSubscription, vault: KeyVault): LogSubscription {
  return {
    close: () => inner.close(),
    async *[Symbol.asyncIterator]() {
      for await (const event of inner) yield openEvent(vault, event);
    },
  };
}

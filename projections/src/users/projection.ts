/**
 * The users read model: one hash per user plus two lookup hashes (username and e-mail to id).
 * UserRegistered writes the user; the profile edits UserNameChanged and UserPhoneChanged update
 * the name and phone fields; UserAccountDeleted removes the user and its lookups. PasswordChanged and the sign-in events change nothing shown here.
 * Uniqueness is already guaranteed on the write side (one claim stream per key), so plain HSET
 * is enough and a replay in log order always ends with the same values.
 */
import type { RecordedEvent } from '@quern/core';
import { normalizeEmail, normalizeUsername, toUserEvent, type UserRegistered } from '@quern/core/identity';
import { ERASED } from '@quern/core/personal-data';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { USER_ID_BY_EMAIL_KEY, USER_ID_BY_USERNAME_KEY, userKey } from './keys.js';

const REGISTERED_FIELDS = ['userId', 'username', 'firstName', 'lastName', 'email', 'phone', 'registeredAt'] as const;

/**
 * Refuses an event that lacks a field, rather than writing "undefined" into the read model; the
 * shown fields must be non-empty here (the schema allows an empty name or phone), and the rest is
 * read through identity's event schema.
 */
function registeredData(event: RecordedEvent): UserRegistered['data'] {
  for (const field of REGISTERED_FIELDS) {
    const value = event.data[field];
    if (typeof value !== 'string' || value.length === 0) throw new Error(`UserRegistered has no ${field}`);
  }
  const registered = toUserEvent(event);
  if (registered?.type !== 'UserRegistered') throw new Error('UserRegistered is malformed');
  return registered.data;
}

/**
 * Drops a deleted account (ADR 042): its hash and its lookup entries. The e-mail is no longer
 * readable from the log by now (the key is destroyed), so the script takes it from the hash it
 * is about to delete, at EXEC time inside the same transaction; an entry is removed only while
 * it still names this user.
 */
const DROP_USER_SCRIPT = `
local email = redis.call('HGET', KEYS[1], 'email_index') or redis.call('HGET', KEYS[1], 'email')
if email and redis.call('HGET', KEYS[2], email) == ARGV[1] then redis.call('HDEL', KEYS[2], email) end
if redis.call('HGET', KEYS[3], ARGV[2]) == ARGV[1] then redis.call('HDEL', KEYS[3], ARGV[2]) end
redis.call('DEL', KEYS[1])
return 1
`;

export const usersProjection: Projection = {
  name: 'users',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
    if (event.type === 'UserAccountDeleted') {
      const deleted = toUserEvent(event);
      if (deleted?.type !== 'UserAccountDeleted') throw new Error('UserAccountDeleted is malformed');
      const { userId, username } = deleted.data;
      tx.eval(DROP_USER_SCRIPT, 3, userKey(userId), USER_ID_BY_EMAIL_KEY, USER_ID_BY_USERNAME_KEY, userId, normalizeUsername(username));
      return;
    }
    if (event.type === 'UserNameChanged' || event.type === 'UserPhoneChanged') {
      applyProfileEdit(event, tx);
      return;
    }
    if (event.type !== 'UserRegistered') return;
    const user = registeredData(event);
    tx.hset(userKey(user.userId), {
      id: user.userId,
      username: user.username,
      first_name: user.firstName,
      last_name: user.lastName,
      phone_number: user.phone,
      email: user.email,
      // The lookup entry's field, kept so that deleting the account can find it (not read out).
      email_index: normalizeEmail(user.email),
      registered_at: user.registeredAt,
    });
    tx.hset(USER_ID_BY_USERNAME_KEY, normalizeUsername(user.username), user.userId);
    // Replaying a deleted account: its e-mail is erased, and UserAccountDeleted follows.
    if (user.email !== ERASED) tx.hset(USER_ID_BY_EMAIL_KEY, normalizeEmail(user.email), user.userId);
  },
};

/** A malformed edit is refused like a malformed registration, never written half. */
function applyProfileEdit(event: RecordedEvent, tx: ChainableCommander): void {
  const edit = toUserEvent(event);
  if (edit?.type === 'UserNameChanged') {
    tx.hset(userKey(edit.data.userId), { first_name: edit.data.firstName, last_name: edit.data.lastName });
  } else if (edit?.type === 'UserPhoneChanged') {
    tx.hset(userKey(edit.data.userId), { phone_number: edit.data.phone });
  } else {
    throw new Error(`${event.type} is malformed`);
  }
}

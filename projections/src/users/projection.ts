/**
 * The users read model: one hash per user plus two lookup hashes (username and e-mail to id).
 * UserRegistered writes the user; the profile edits UserNameChanged and UserPhoneChanged update
 * the name and phone fields. PasswordChanged and the sign-in events change nothing shown here.
 * Uniqueness is already guaranteed on the write side (one claim stream per key), so plain HSET
 * is enough and a replay in log order always ends with the same values.
 */
import type { RecordedEvent } from '@quern/core';
import { normalizeEmail, normalizeUsername, toUserEvent, type UserRegistered } from '@quern/core/identity';
import type { ChainableCommander } from 'ioredis';
import type { Projection } from '../types.js';
import { USER_ID_BY_EMAIL_KEY, USER_ID_BY_USERNAME_KEY, userKey } from './keys.js';

const REGISTERED_FIELDS = ['userId', 'username', 'firstName', 'lastName', 'email', 'phone', 'registeredAt'] as const;

/** Refuses an event that lacks a field, rather than writing "undefined" into the read model. */
function registeredData(event: RecordedEvent): Omit<UserRegistered['data'], 'passwordHash'> {
  for (const field of REGISTERED_FIELDS) {
    const value = event.data[field];
    if (typeof value !== 'string' || value.length === 0) throw new Error(`UserRegistered has no ${field}`);
  }
  return event.data as unknown as UserRegistered['data'];
}

export const usersProjection: Projection = {
  name: 'users',
  apply(event: RecordedEvent, tx: ChainableCommander): void {
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
      registered_at: user.registeredAt,
    });
    tx.hset(USER_ID_BY_USERNAME_KEY, normalizeUsername(user.username), user.userId);
    tx.hset(USER_ID_BY_EMAIL_KEY, normalizeEmail(user.email), user.userId);
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

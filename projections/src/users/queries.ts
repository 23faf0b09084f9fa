/** Reads of the users read model. Lookups normalize their input the way registration does. */
import { normalizeEmail, normalizeUsername } from '@quern/core/identity';
import type { Redis } from 'ioredis';
import { USER_ID_BY_EMAIL_KEY, USER_ID_BY_USERNAME_KEY, userKey } from './keys.js';

export interface UserReadModel {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  phone_number: string;
  email: string;
  registered_at: string;
}

const FIELDS = ['id', 'username', 'first_name', 'last_name', 'phone_number', 'email', 'registered_at'] as const;

/** The user, or null when no such user is projected (yet). */
export async function getUser(redis: Redis, userId: string): Promise<UserReadModel | null> {
  const values = await redis.hmget(userKey(userId), ...FIELDS);
  if (values[0] === null || values[0] === undefined) return null;
  const user = Object.fromEntries(FIELDS.map((field, i) => [field, values[i] ?? ''])) as Record<(typeof FIELDS)[number], string>;
  return user;
}

export async function findUserIdByUsername(redis: Redis, username: string): Promise<string | null> {
  const key = normalizeUsername(username);
  return key.length === 0 ? null : redis.hget(USER_ID_BY_USERNAME_KEY, key);
}

export async function findUserIdByEmail(redis: Redis, email: string): Promise<string | null> {
  const key = normalizeEmail(email);
  return key.length === 0 ? null : redis.hget(USER_ID_BY_EMAIL_KEY, key);
}

/**
 * Server-side sessions in Redis. The cookie holds a random 256-bit token; Redis holds only its
 * SHA-256, so a leaked Redis dump cannot be replayed as cookies. Sessions slide: each use
 * extends the expiry, bounded by the configured TTL.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const SESSION_COOKIE = 'quern_session';

export interface Session {
  userId: string;
  email: string;
  createdAt: string;
}

const key = (token: string) => `session:${createHash('sha256').update(token).digest('hex')}`;
const userIndex = (userId: string) => `session-user:${userId}`;
/** Tokens are 43 base64url characters; anything else is not ours and is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface SessionStore {
  create(userId: string, email: string, now: Date): Promise<string>;
  get(token: string | undefined): Promise<Session | undefined>;
  destroy(token: string | undefined): Promise<void>;
  /** Ends every session of a user (after a password reset). */
  destroyAllFor(userId: string): Promise<void>;
  ttlSeconds: number;
}

export function createSessionStore(redis: Redis, ttlHours: number): SessionStore {
  const ttlSeconds = ttlHours * 3600;
  return {
    ttlSeconds,
    async create(userId, email, now) {
      const token = randomBytes(32).toString('base64url');
      const session: Session = { userId, email, createdAt: now.toISOString() };
      await redis
        .multi()
        .set(key(token), JSON.stringify(session), 'EX', ttlSeconds)
        .sadd(userIndex(userId), key(token))
        .expire(userIndex(userId), ttlSeconds)
        .exec();
      return token;
    },
    async get(token) {
      if (!token || !TOKEN_PATTERN.test(token)) return undefined;
      const raw = await redis.getex(key(token), 'EX', ttlSeconds);
      return raw ? (JSON.parse(raw) as Session) : undefined;
    },
    async destroy(token) {
      if (!token || !TOKEN_PATTERN.test(token)) return;
      const raw = await redis.get(key(token));
      const multi = redis.multi().del(key(token));
      if (raw) multi.srem(userIndex((JSON.parse(raw) as Session).userId), key(token));
      await multi.exec();
    },
    async destroyAllFor(userId) {
      const keys = await redis.smembers(userIndex(userId));
      await redis
        .multi()
        .del(...keys, userIndex(userId))
        .exec();
    },
  };
}

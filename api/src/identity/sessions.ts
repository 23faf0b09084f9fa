/**
 * Server-side sessions in Redis. The cookie holds a random 256-bit token; Redis holds only its
 * SHA-256, so a leaked Redis dump cannot be replayed as cookies. Sessions slide: each use
 * extends the expiry by the idle TTL, but never past the absolute lifetime counted from sign-in,
 * so a stolen cookie kept busy still dies.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

export const SESSION_COOKIE = 'quern_session';

export interface Session {
  userId: string;
  email: string;
  createdAt: string;
  /**
   * When the session last proved the password (sign-in, or step-up re-authentication; ADR 045).
   * Sessions created before it was recorded read createdAt, their sign-in.
   */
  authenticatedAt?: string;
}

const key = (token: string) => `session:${createHash('sha256').update(token).digest('hex')}`;
const userIndex = (userId: string) => `session-user:${userId}`;
/** Tokens are 43 base64url characters; anything else is not ours and is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const isToken = (token: string | undefined): token is string => token !== undefined && TOKEN_PATTERN.test(token);

export interface SessionStore {
  create(userId: string, email: string, now: Date): Promise<string>;
  get(token: string | undefined): Promise<Session | undefined>;
  destroy(token: string | undefined): Promise<void>;
  /** Records that the session proved the password again now (step-up re-authentication). */
  markAuthenticated(token: string | undefined, now: Date): Promise<void>;
  /** Ends every session of a user (after a password reset). */
  destroyAllFor(userId: string): Promise<void>;
  /** Ends every session of a user but the given one (after a password change in that session). */
  destroyOthersFor(userId: string, keepToken: string | undefined): Promise<void>;
  ttlSeconds: number;
}

export interface SessionSettings {
  /** How long an unused session lasts. */
  ttlHours: number;
  /** How long any session lasts, used or not. */
  maxAgeDays: number;
  /** Milliseconds since the epoch; tests move it forward. */
  nowMs?: () => number;
}

export function createSessionStore(redis: Redis, settings: SessionSettings): SessionStore {
  const ttlSeconds = settings.ttlHours * 3600;
  const maxAgeMs = settings.maxAgeDays * 24 * 3600 * 1000;
  const nowMs = settings.nowMs ?? Date.now;
  /** Seconds the session may still live: the idle TTL, cut short by the absolute lifetime. */
  const lifeLeftSeconds = (session: Session) =>
    Math.min(ttlSeconds, Math.floor((Date.parse(session.createdAt) + maxAgeMs - nowMs()) / 1000));

  const store: SessionStore = {
    ttlSeconds,
    async create(userId, email, now) {
      const token = randomBytes(32).toString('base64url');
      const session: Session = { userId, email, createdAt: now.toISOString(), authenticatedAt: now.toISOString() };
      const expirySeconds = Math.max(1, lifeLeftSeconds(session));
      await redis
        .multi()
        .set(key(token), JSON.stringify(session), 'EX', expirySeconds)
        .sadd(userIndex(userId), key(token))
        // The index outlives the sessions it names; it is only a list of keys to delete.
        .expire(userIndex(userId), Math.ceil(maxAgeMs / 1000))
        .exec();
      return token;
    },
    async get(token) {
      if (!isToken(token)) return undefined;
      // One round trip slides the idle TTL; only a session near its end needs a second one.
      const raw = await redis.getex(key(token), 'EX', ttlSeconds);
      if (!raw) return undefined;
      const session = JSON.parse(raw) as Session;
      const leftSeconds = lifeLeftSeconds(session);
      if (!(leftSeconds > 0)) {
        await store.destroy(token);
        return undefined;
      }
      if (leftSeconds < ttlSeconds) await redis.expire(key(token), leftSeconds);
      return session;
    },
    async markAuthenticated(token, now) {
      if (!isToken(token)) return;
      const raw = await redis.get(key(token));
      if (!raw) return;
      const session: Session = { ...(JSON.parse(raw) as Session), authenticatedAt: now.toISOString() };
      // KEEPTTL: proving the password again does not make the session live longer.
      await redis.set(key(token), JSON.stringify(session), 'KEEPTTL');
    },
    async destroy(token) {
      if (!isToken(token)) return;
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
    async destroyOthersFor(userId, keepToken) {
      const keep = isToken(keepToken) ? key(keepToken) : undefined;
      const others = (await redis.smembers(userIndex(userId))).filter((k) => k !== keep);
      if (others.length === 0) return;
      await redis
        .multi()
        .del(...others)
        .srem(userIndex(userId), ...others)
        .exec();
    },
  };
  return store;
}

/**
 * Integration-test global setup: every run gets its own private Redis so that test data never
 * mixes with a developer's Redis and CI works on a machine where none is running; and Debian's
 * chromium is installed when missing.
 */
import { ensureChromium } from './chromium.js';
import { startPrivateRedis, type RedisServer } from './redis.js';

let redis: RedisServer | undefined;

export async function setup(): Promise<void> {
  // Some integration tests drive a real browser (the local PayPal SDK's browser test).
  ensureChromium((line) => console.log(`[test setup] ${line}`));
  if (process.env.REDIS_URL) return;
  redis = await startPrivateRedis();
  process.env.REDIS_URL = redis.url;
  console.log(`[test setup] private redis-server at ${redis.url}`);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}

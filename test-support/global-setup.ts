/**
 * Integration-test global setup: every Vitest worker gets its own private Redis, so that test
 * data never mixes with a developer's Redis or with the spec running in the other worker, and CI
 * works on a machine where none is running; and Debian's chromium is installed when missing.
 * A REDIS_URL given from outside is used as is, and then Vitest runs one file at a time
 * (vitest.config.ts).
 */
import { ensureChromium } from './chromium.js';
import { startPrivateRedis, type RedisServer } from './redis.js';
import { TEST_WORKERS } from './test-workers.js';

let servers: RedisServer[] = [];

export async function setup(): Promise<void> {
  // Some integration tests drive a real browser (the local PayPal SDK's browser test).
  ensureChromium((line) => console.log(`[test setup] ${line}`));
  if (process.env.REDIS_URL) return;
  servers = await Promise.all(Array.from({ length: TEST_WORKERS }, () => startPrivateRedis()));
  // worker-redis.ts picks one per worker; REDIS_URL stays set for anything read before that.
  process.env.QUERN_TEST_REDIS_URLS = servers.map((server) => server.url).join(',');
  process.env.REDIS_URL = servers[0]?.url;
  console.log(`[test setup] private redis-servers at ${process.env.QUERN_TEST_REDIS_URLS}`);
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}

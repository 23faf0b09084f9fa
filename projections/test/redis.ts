/** Test support: a private redis-server per test file, so tests may flush it and read fixed rm: keys. */
import { Redis } from 'ioredis';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';

export interface PrivateRedis {
  server: RedisServer;
  redis: Redis;
  stop(): Promise<void>;
}

export async function openPrivateRedis(): Promise<PrivateRedis> {
  const server = await startPrivateRedis();
  const redis = new Redis(server.url, { maxRetriesPerRequest: null });
  return {
    server,
    redis,
    async stop() {
      redis.disconnect();
      await server.stop();
    },
  };
}

export { captureLog, type CapturedLog } from '@quern/test-support/log';

/** Polls until the check passes or the timeout expires (then fails with the message). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

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

export interface CapturedLog {
  info: string[];
  error: string[];
  logger: { info(message: string): void; error(message: string): void };
}

export function captureLog(): CapturedLog {
  const info: string[] = [];
  const error: string[] = [];
  return { info, error, logger: { info: (m) => info.push(m), error: (m) => error.push(m) } };
}

/** Polls until the check passes or the timeout expires (then fails with the message). */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out: ${message}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

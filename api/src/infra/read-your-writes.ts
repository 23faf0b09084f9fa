/**
 * Waits until the projection checkpoint in Redis reaches a log position, for an api process
 * that does not run the projections itself. Polls, because a checkpoint is a plain key.
 */
import type { Redis } from 'ioredis';

const POLL_INTERVAL_MS = 20;

export async function waitForCheckpoint(redis: Redis, key: string, position: bigint, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await redis.get(key);
    if (value !== null && /^\d+$/.test(value) && BigInt(value) >= position) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

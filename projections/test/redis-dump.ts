/** Test support: every key matching a pattern with its type and value, for comparing Redis states. */
import type { Redis } from 'ioredis';

export async function dumpKeys(redis: Redis, pattern: string): Promise<Record<string, unknown>> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1_000);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const dump: Record<string, unknown> = {};
  for (const key of keys.sort()) dump[key] = await readKey(redis, key);
  return dump;
}

async function readKey(redis: Redis, key: string): Promise<unknown> {
  const type = await redis.type(key);
  switch (type) {
    case 'string':
      return { string: await redis.get(key) };
    case 'hash':
      return { hash: await redis.hgetall(key) };
    case 'zset':
      return { zset: await redis.zrange(key, '0', '-1', 'WITHSCORES') };
    case 'set':
      return { set: (await redis.smembers(key)).sort() };
    case 'list':
      return { list: await redis.lrange(key, 0, -1) };
    default:
      return { type };
  }
}

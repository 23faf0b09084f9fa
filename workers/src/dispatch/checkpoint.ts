/**
 * The dispatcher's checkpoint: 'start' (the log was scanned while empty) or the last dispatched
 * position in decimal. A missing key means Redis lost the dispatcher's state, queues included,
 * so the open work must be re-derived from the log. That is why an empty log gets 'start' rather
 * than no key: "never checkpointed" and "lost" must not look alike once jobs may exist.
 */
import type { Redis } from 'ioredis';

export const CHECKPOINT_START = 'start';
const POSITION_PATTERN = /^(0|[1-9][0-9]{0,19})$/;

/** The exclusive `after` to resume from; throws on a value the dispatcher never writes. */
export function resumeAfter(value: string): bigint | undefined {
  if (value === CHECKPOINT_START) return undefined;
  if (POSITION_PATTERN.test(value)) return BigInt(value);
  throw new Error(`The dispatcher checkpoint holds an invalid value ${JSON.stringify(value.slice(0, 64))}`);
}

export const checkpointValue = (position: bigint | undefined): string => (position === undefined ? CHECKPOINT_START : position.toString());

/** Moves the checkpoint only from the value this dispatcher last wrote; 0 means it was lost or moved. */
const ADVANCE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0`;

export async function advanceCheckpoint(redis: Redis, key: string, expected: string, next: string): Promise<boolean> {
  return Number(await redis.eval(ADVANCE, 1, key, expected, next)) === 1;
}

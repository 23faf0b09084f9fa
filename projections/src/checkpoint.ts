/**
 * The checkpoint key's value: the last applied global position in decimal, or a fence that a
 * rebuild sets while it deletes and rewrites the read models. A missing key means "start of the
 * log". Anything else is refused, because guessing would apply events twice or skip them.
 */

export type StoredCheckpoint = { kind: 'none' } | { kind: 'position'; position: bigint } | { kind: 'fenced'; owner: string };

const FENCE_PREFIX = 'rebuilding:';
/** Positions are unsigned 64-bit integers at most (20 decimal digits), without leading zeros. */
const POSITION_PATTERN = /^(0|[1-9][0-9]{0,19})$/;

export function parseCheckpoint(value: string | null): StoredCheckpoint {
  if (value === null) return { kind: 'none' };
  if (POSITION_PATTERN.test(value)) return { kind: 'position', position: BigInt(value) };
  if (value.startsWith(FENCE_PREFIX) && value.length > FENCE_PREFIX.length) {
    return { kind: 'fenced', owner: value.slice(FENCE_PREFIX.length) };
  }
  throw new Error(`The checkpoint holds an invalid value ${JSON.stringify(value.slice(0, 64))}`);
}

export function formatPosition(position: bigint): string {
  if (position < 0n) throw new Error(`A position cannot be negative (${position})`);
  return position.toString();
}

export const fenceValue = (owner: string): string => `${FENCE_PREFIX}${owner}`;

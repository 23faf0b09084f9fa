/**
 * Rebuild: delete every read model and replay the whole log into them. The checkpoint is fenced
 * first, so a runner that is still live stops committing (its guarded EXEC fails and it waits)
 * instead of writing into half-deleted models; the rebuild's own commits are guarded the same way.
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@quern/core';
import type { Redis } from 'ioredis';
import { fenceValue, formatPosition } from './checkpoint.js';
import { commitBatch } from './commit.js';
import { DEFAULT_CHECKPOINT_KEY, READ_MODEL_KEY_PREFIX, type Projection } from './types.js';

export interface RebuildProjectionsOptions {
  store: EventStore;
  redis: Redis;
  projections: readonly Projection[];
  checkpointKey?: string;
  /** Events read from the log and committed per MULTI/EXEC. */
  pageSize?: number;
  /** Keys per SCAN step and per UNLINK. */
  deleteBatchSize?: number;
}

export interface RebuildReport {
  deletedKeys: number;
  events: number;
  /** Last position replayed; undefined when the log is empty. */
  position: bigint | undefined;
  durationMs: number;
  eventsPerSecond: number;
}

/**
 * Deletes the keys only while the fence is still ours, atomically: a rebuild overtaken by a newer
 * one must not delete keys the newer one has already rewritten.
 */
const UNLINK_IF_FENCED = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
return redis.call('UNLINK', unpack(KEYS, 2))`;

/** Releases the fence only if it is still ours (a later rebuild may have replaced it). */
const RELEASE_FENCE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** Replaces the fence with the position reached, only if the fence is still ours. */
const LIFT_FENCE = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) return 1 end return 0`;

export async function rebuildProjections(options: RebuildProjectionsOptions): Promise<RebuildReport> {
  const checkpointKey = options.checkpointKey ?? DEFAULT_CHECKPOINT_KEY;
  const pageSize = options.pageSize ?? 1_000;
  const startedAt = performance.now();
  const owner = randomUUID();
  const fence = fenceValue(owner);
  // Each page is committed under the fence with its progress, so live runners keep waiting until
  // the whole log is replayed, instead of resuming after the first page and moving the checkpoint
  // under the rebuild.
  const fencedAt = (reached: bigint) => fenceValue(`${owner}@${formatPosition(reached)}`);
  await options.redis.set(checkpointKey, fence);
  const deletedKeys = await deleteReadModels(options.redis, checkpointKey, fence, options.deleteBatchSize ?? 1_000);

  const connection = options.redis.duplicate();
  let expectedCheckpoint: string = fence;
  let position: bigint | undefined;
  let events = 0;
  try {
    for (;;) {
      const page = await options.store.readAll({ after: position, maxCount: pageSize });
      if (page.length === 0) break;
      const outcome = await commitBatch(connection, {
        checkpointKey,
        expectedCheckpoint,
        events: page,
        projections: options.projections,
        nextCheckpoint: fencedAt,
      });
      if (outcome.kind === 'moved') throw new Error('The checkpoint changed during the rebuild (another rebuild started?); run it again');
      // A replay must not skip an event: an event that cannot be applied stops the rebuild.
      if (outcome.failure) throw outcome.failure;
      position = outcome.position;
      expectedCheckpoint = fencedAt(position);
      events += outcome.appliedCount;
      if (page.length < pageSize) break;
    }
  } finally {
    // Done or failed, the fence is lifted: to the last position committed (live runners resume
    // from it), or, before any page, removed (runners replay from the start instead of waiting for
    // a rebuild that is no longer running).
    if (position === undefined) await options.redis.eval(RELEASE_FENCE, 1, checkpointKey, fence);
    else await options.redis.eval(LIFT_FENCE, 1, checkpointKey, expectedCheckpoint, formatPosition(position));
    await connection.quit().catch(() => connection.disconnect());
  }
  const durationMs = performance.now() - startedAt;
  return { deletedKeys, events, position, durationMs, eventsPerSecond: durationMs > 0 ? Math.round((events * 1000) / durationMs) : events };
}

/** SCAN + UNLINK in batches; UNLINK frees memory in the background so Redis stays responsive. */
async function deleteReadModels(redis: Redis, checkpointKey: string, fence: string, batchSize: number): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${READ_MODEL_KEY_PREFIX}*`, 'COUNT', batchSize);
    cursor = next;
    const doomed = keys.filter((key) => key !== checkpointKey);
    if (doomed.length === 0) continue;
    const unlinked = Number(await redis.eval(UNLINK_IF_FENCED, doomed.length + 1, checkpointKey, ...doomed, fence));
    if (unlinked < 0) throw new Error('The checkpoint changed during the rebuild (another rebuild started?); run it again');
    deleted += unlinked;
  } while (cursor !== '0');
  return deleted;
}

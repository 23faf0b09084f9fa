/**
 * What a projection is. A projection turns log events into Redis writes; the runner puts the
 * writes of a whole batch of events and the checkpoint into one MULTI/EXEC, so each event takes
 * effect exactly once.
 */
import type { RecordedEvent } from '@quern/core';
import type { ChainableCommander } from 'ioredis';

export interface Projection {
  /** Names the projection in logs and errors. */
  readonly name: string;
  /**
   * Queues the event's writes on the transaction. It must not read Redis (a read inside a
   * MULTI returns nothing until EXEC) and must not await: write with commands whose result does
   * not depend on what they overwrite (HSET, HSETNX, ZADD), and be deterministic in log order so
   * a rebuild from position 0 gives the same keys and values. Events it does not know are ignored.
   */
  apply(event: RecordedEvent, tx: ChainableCommander): void;
}

/** Every read-model key starts with this, so a rebuild can find and delete all of them. */
export const READ_MODEL_KEY_PREFIX = 'rm:';

/**
 * The runner's checkpoint sits inside the read-model namespace on purpose: whatever deletes the
 * read models (a rebuild, an operator's `--scan --pattern 'rm:*'`, FLUSHALL) deletes the
 * checkpoint with them, so the models can never be empty while the checkpoint says "done".
 */
export const DEFAULT_CHECKPOINT_KEY = 'rm:checkpoint';

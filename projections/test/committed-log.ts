/**
 * Test support: hand-written events committed to a real Redis through `commitBatch` and its
 * checkpoint, exactly as the runner commits a batch, so a test can then read the result through
 * the public queries. Hand-written (rather than produced by the deciders) so that tests can also
 * feed events recorded by older versions, incomplete ones and extreme positions.
 */
import type { RecordedEvent } from '@quern/core';
import type { Redis } from 'ioredis';
import { type CommitOutcome, commitBatch } from '../src/commit.js';
import { DEFAULT_CHECKPOINT_KEY, type Projection } from '../src/types.js';

export interface EventOptions {
  /** Defaults to the position after the last event made by this log. */
  position?: bigint;
  /** Defaults to `event-<position>`. */
  id?: string;
}

export interface CommittedLog {
  /** An event at the next position (or the given one); nothing is written until `commit`. */
  event(type: string, data: Record<string, unknown>, options?: EventOptions): RecordedEvent;
  /** Commits the events as one batch, guarded by the checkpoint; throws what `commitBatch` throws. */
  commit(...events: RecordedEvent[]): Promise<CommitOutcome>;
  /** Makes one event and commits it; fails unless every write of it was committed. */
  apply(type: string, data: Record<string, unknown>, options?: EventOptions): Promise<RecordedEvent>;
  /** The checkpoint as a reader (waitForPosition in another process) sees it. */
  checkpoint(): Promise<string | null>;
  close(): void;
}

/** `redis` is only duplicated: WATCH state belongs to a connection, and the commits get their own. */
export function openCommittedLog(redis: Redis, projections: readonly Projection[]): CommittedLog {
  const connection = redis.duplicate();
  let expectedCheckpoint: string | null = null;
  let lastPosition = 0n;

  const log: CommittedLog = {
    event(type, data, options = {}) {
      const position = options.position ?? lastPosition + 1n;
      if (position > lastPosition) lastPosition = position;
      // Projections ignore the stream; it is set only so that the events look like the real ones.
      const streamId =
        typeof data.walletId === 'string' ? `wallet-${data.walletId}` : typeof data.userId === 'string' ? `user-${data.userId}` : 'test';
      return {
        id: options.id ?? `event-${position}`,
        streamId,
        revision: 0n,
        position,
        type,
        data,
        metadata: {},
        recordedAt: '2026-01-01T00:00:00.000Z',
      };
    },
    async commit(...events) {
      const outcome = await commitBatch(connection, { checkpointKey: DEFAULT_CHECKPOINT_KEY, expectedCheckpoint, events, projections });
      if (outcome.kind === 'committed') expectedCheckpoint = outcome.position.toString();
      return outcome;
    },
    async apply(type, data, options) {
      const event = log.event(type, data, options);
      const outcome = await log.commit(event);
      if (outcome.kind !== 'committed' || outcome.failure || outcome.position !== event.position) {
        const why = outcome.kind === 'moved' ? 'the checkpoint moved' : (outcome.failure?.message ?? `it stopped at ${outcome.position}`);
        throw new Error(`${type} at position ${event.position} was not committed: ${why}`);
      }
      return event;
    },
    checkpoint: () => redis.get(DEFAULT_CHECKPOINT_KEY),
    close: () => connection.disconnect(),
  };
  return log;
}

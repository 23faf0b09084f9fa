/**
 * Applies a batch of events and moves the checkpoint in one MULTI/EXEC, guarded by WATCH on the
 * checkpoint. The guard makes "exactly once" hold even when something else writes the
 * checkpoint: a second runner, a rebuild (which fences it), or FLUSHALL (which resets it). In
 * each case EXEC is refused and the caller re-reads the checkpoint instead of applying on top.
 */
import type { RecordedEvent } from '@quern/core';
import type { ChainableCommander, Redis } from 'ioredis';
import { formatPosition } from './checkpoint.js';
import type { Projection } from './types.js';

export type CommitOutcome =
  /** The events up to `position` are applied; `failure` is set when a later event could not be. */
  | { kind: 'committed'; position: bigint; appliedCount: number; failure?: ProjectionApplyError }
  /** The checkpoint was not what the caller expected; nothing was written. */
  | { kind: 'moved' };

/** A projection threw on an event; the event is retried, never skipped. */
export class ProjectionApplyError extends Error {
  constructor(
    readonly projection: string,
    readonly position: bigint,
    readonly eventType: string,
    cause: unknown,
  ) {
    super(
      `Projection ${projection} failed on ${eventType} at position ${position}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'ProjectionApplyError';
  }
}

/**
 * Redis ran part of a transaction: it does not roll back a MULTI whose commands fail at run
 * time (WRONGTYPE and the like), so the checkpoint moved although some writes are missing.
 * Retrying would apply the other writes twice; the consumer stops and a rebuild repairs it.
 */
export class PartialCommitError extends Error {
  constructor(
    readonly position: bigint,
    cause: Error,
  ) {
    super(`Redis refused a read-model write for the event at position ${position} after the batch was committed: ${cause.message}`, {
      cause,
    });
    this.name = 'PartialCommitError';
  }
}

export interface CommitRequest {
  checkpointKey: string;
  /** The checkpoint value the caller believes is stored (null: no checkpoint yet). */
  expectedCheckpoint: string | null;
  events: readonly RecordedEvent[];
  projections: readonly Projection[];
  /** The checkpoint value written with the batch (default: the position itself; a rebuild keeps its fence). */
  nextCheckpoint?: (position: bigint) => string;
}

/** `connection` must be dedicated to the caller: WATCH state belongs to the connection. */
export async function commitBatch(connection: Redis, request: CommitRequest): Promise<CommitOutcome> {
  const { checkpointKey, expectedCheckpoint, events, projections } = request;
  const last = events.at(-1);
  if (!last) throw new Error('commitBatch needs at least one event');
  await connection.watch(checkpointKey);
  const stored = await connection.get(checkpointKey);
  if (stored !== expectedCheckpoint) {
    await connection.unwatch();
    return { kind: 'moved' };
  }
  let built = queueWrites(connection, events, projections);
  let failure: ProjectionApplyError | undefined;
  if (built.failure) {
    failure = built.failure;
    // The half-built transaction holds part of the failing event's writes: drop it (nothing was
    // sent yet) and queue again only the events before it, so their progress is kept.
    const applicable = events.slice(0, built.failedIndex);
    if (applicable.length === 0) {
      await connection.unwatch();
      throw failure;
    }
    built = queueWrites(connection, applicable, projections);
    if (built.failure)
      throw new Error(`Projection ${built.failure.projection} is not deterministic: it failed on a replay that had succeeded`);
  }
  const applied = events.slice(0, built.eventCount);
  const position = (applied.at(-1) as RecordedEvent).position;
  built.tx.set(checkpointKey, (request.nextCheckpoint ?? formatPosition)(position));
  const replies = await built.tx.exec();
  if (replies === null) return { kind: 'moved' };
  const failedReply = replies.findIndex(([error]) => error !== null);
  if (failedReply >= 0) {
    const error = replies[failedReply]?.[0] as Error;
    throw new PartialCommitError(positionOfCommand(applied, built.commandEnds, failedReply), error);
  }
  return failure
    ? { kind: 'committed', position, appliedCount: applied.length, failure }
    : { kind: 'committed', position, appliedCount: applied.length };
}

interface QueuedWrites {
  tx: ChainableCommander;
  /** Events whose writes are queued. */
  eventCount: number;
  /** commandEnds[i]: how many commands are queued after event i (relative to the first). */
  commandEnds: number[];
  failure?: ProjectionApplyError;
  failedIndex: number;
}

function queueWrites(connection: Redis, events: readonly RecordedEvent[], projections: readonly Projection[]): QueuedWrites {
  const tx = connection.multi();
  const firstCommand = tx.length;
  const commandEnds: number[] = [];
  for (const [index, event] of events.entries()) {
    for (const projection of projections) {
      try {
        projection.apply(event, tx);
      } catch (error) {
        const failure = new ProjectionApplyError(projection.name, event.position, event.type, error);
        return { tx, eventCount: index, commandEnds, failure, failedIndex: index };
      }
    }
    commandEnds.push(tx.length - firstCommand);
  }
  return { tx, eventCount: events.length, commandEnds, failedIndex: -1 };
}

/** Which event queued the command at this reply index; the checkpoint SET maps to the last event. */
function positionOfCommand(events: readonly RecordedEvent[], commandEnds: readonly number[], replyIndex: number): bigint {
  const eventIndex = commandEnds.findIndex((end) => replyIndex < end);
  const event = eventIndex >= 0 ? events[eventIndex] : events.at(-1);
  return (event as RecordedEvent).position;
}

/** Test support: a RecordedEvent as a store would return it, for pure tests without a store. */
import type { RecordedEvent } from '@quern/core';

export const recorded = (
  type: string,
  data: Record<string, unknown>,
  position = 1n,
  metadata: Record<string, unknown> = {},
): RecordedEvent => ({
  id: `event-${position}`,
  streamId: `user-${String(data.userId)}`,
  revision: 0n,
  position,
  type,
  data,
  metadata,
  recordedAt: '2026-01-01T00:00:00.000Z',
});

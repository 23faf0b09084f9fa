/** A logger that keeps its lines, for tests that assert on what a part logged. */
import type { Logger } from '@quern/core';

export interface CapturedLog {
  info: string[];
  error: string[];
  logger: Logger;
}

export function captureLog(): CapturedLog {
  const info: string[] = [];
  const error: string[] = [];
  return { info, error, logger: { info: (m) => info.push(m), error: (m) => error.push(m) } };
}

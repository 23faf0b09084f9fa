/**
 * Where long-running parts (projections, dispatcher, workers, watchers, the api) write their
 * one-line logs. A port: JSON lines on stdout in production (`processLogger` in @quern/adapters/runtime),
 * an array in tests that assert on what was logged.
 */
export interface Logger {
  info(message: string): void;
  error(message: string): void;
}

/** An error's message for a log line (a thrown value need not be an Error). */
export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

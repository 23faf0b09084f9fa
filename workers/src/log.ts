/** Where workers and the dispatcher write their one-line logs (console unless a test captures them). */
export interface Logger {
  info(message: string): void;
  error(message: string): void;
}

export const consoleLogger: Logger = {
  info: (message) => console.log(message),
  error: (message) => console.error(message),
};

export const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

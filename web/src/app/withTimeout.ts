/** The spec's limit on loading a lazy chunk (a route's code or a translation file). */
export const lazyChunkTimeoutMs = 120_000;

/** Thrown when a lazy load takes longer than its limit, so error boundaries can tell it apart. */
export class ChunkLoadTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
  ) {
    super(`Loading ${what} took longer than ${timeoutMs} ms`);
    this.name = 'ChunkLoadTimeoutError';
  }
}

/**
 * Settles like `load()` unless that takes longer than `timeoutMs`, in which case it rejects with
 * ChunkLoadTimeoutError. Without this a stalled network request would leave a page on its
 * loading fallback forever.
 */
export function withTimeout<T>(load: () => Promise<T>, what: string, timeoutMs = lazyChunkTimeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadTimeoutError(what, timeoutMs)), timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

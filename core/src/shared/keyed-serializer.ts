/**
 * Runs async work one at a time per key. Commands on one wallet stream from the same process
 * queue up here instead of racing on the stream's expected revision: under a burst of sends
 * every one of them gets decided (none fails as "busy" after exhausting its retries), while
 * optimistic concurrency still guards against other processes. Pure: promises only.
 */
export type KeyedSerializer = <T>(key: string, work: () => Promise<T>) => Promise<T>;

export function createKeyedSerializer(): KeyedSerializer {
  const tails = new Map<string, Promise<unknown>>();
  return (key, work) => {
    const previous = tails.get(key) ?? Promise.resolve();
    const run = previous.then(work, work);
    // The chain must not break on a failure, and the map must not keep finished keys.
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}

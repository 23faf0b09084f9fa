// Proves that work for one key runs strictly one at a time, in order, survives failures, and
// that different keys run concurrently.
import { describe, expect, it } from 'vitest';
import { createKeyedSerializer } from './keyed-serializer.js';

/** Yields to other queued work a few times (core has no timers: it is pure). */
const tick = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('createKeyedSerializer', () => {
  it('given overlapping work on one key, when run, then it never overlaps and keeps order', async () => {
    const serialize = createKeyedSerializer();
    let running = 0;
    let maxRunning = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        serialize('wallet-a', async () => {
          running += 1;
          maxRunning = Math.max(maxRunning, running);
          await tick();
          order.push(i);
          running -= 1;
        }),
      ),
    );
    expect(maxRunning).toBe(1);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('given a failing task, when the next one is queued, then it still runs and the error reaches its caller', async () => {
    const serialize = createKeyedSerializer();
    const failed = serialize('k', async () => {
      throw new Error('boom');
    });
    const next = serialize('k', async () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
  });

  it('given two keys, when run, then they overlap', async () => {
    const serialize = createKeyedSerializer();
    let running = 0;
    let maxRunning = 0;
    const task = () => async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await tick();
      running -= 1;
    };
    await Promise.all([serialize('a', task()), serialize('b', task())]);
    expect(maxRunning).toBe(2);
  });
});

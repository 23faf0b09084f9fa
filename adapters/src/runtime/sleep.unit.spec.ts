// Proves that sleep ends early when its signal aborts, so close() is prompt.
import { describe, expect, it } from 'vitest';
import { sleep } from './index.js';

describe('sleep', () => {
  it('given an abort during the wait, when aborted, then it returns early', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const waiting = sleep(10_000, abort.signal);
    abort.abort();
    await waiting;
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

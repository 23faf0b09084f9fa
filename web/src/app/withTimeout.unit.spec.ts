// Proves lazy loads settle like the load itself unless they exceed the spec's 120 000 ms limit.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadTimeoutError, lazyChunkTimeoutMs, withTimeout } from './withTimeout.js';

afterEach(() => vi.useRealTimers());

describe('withTimeout', () => {
  it('given the spec, then the limit is 120 000 ms', () => {
    expect(lazyChunkTimeoutMs).toBe(120_000);
  });

  it('given a load that answers in time, then its value comes through', async () => {
    await expect(withTimeout(async () => 'page', 'page')).resolves.toBe('page');
  });

  it('given a load that fails, then its own error comes through', async () => {
    await expect(withTimeout(() => Promise.reject(new Error('offline')), 'page')).rejects.toThrow('offline');
  });

  it('given a load that never answers, when 120 000 ms pass, then it rejects with a timeout naming the load', async () => {
    vi.useFakeTimers();
    const result = withTimeout(() => new Promise(() => {}), 'register page');
    const assertion = expect(result).rejects.toThrow(new ChunkLoadTimeoutError('register page', 120_000));
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void result.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });
});

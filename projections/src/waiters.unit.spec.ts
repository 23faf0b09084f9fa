// Proves read-your-writes waiters resolve when their position is reached and give up on timeout, never hanging.
import { describe, expect, it } from 'vitest';
import { PositionWaiters } from './waiters.js';

describe('PositionWaiters', () => {
  it('given a position already applied, when waited for, then it resolves true at once', async () => {
    await expect(new PositionWaiters().wait(5n, 7n, 10)).resolves.toBe(true);
  });

  it('given a later position, when the runner reaches it, then the waiter resolves true and earlier ones too', async () => {
    const waiters = new PositionWaiters();
    const five = waiters.wait(5n, 1n, 5_000);
    const nine = waiters.wait(9n, 1n, 5_000);
    waiters.resolveUpTo(6n);
    await expect(five).resolves.toBe(true);
    waiters.resolveUpTo(9n);
    await expect(nine).resolves.toBe(true);
  });

  it('given a position never reached, when the timeout passes, then it resolves false', async () => {
    await expect(new PositionWaiters().wait(5n, undefined, 20)).resolves.toBe(false);
  });

  it('given an invalid timeout, when waiting, then it resolves false instead of waiting forever', async () => {
    await expect(new PositionWaiters().wait(5n, undefined, Number.POSITIVE_INFINITY)).resolves.toBe(false);
    await expect(new PositionWaiters().wait(5n, undefined, -1)).resolves.toBe(false);
  });

  it('given pending waiters, when the runner closes, then they resolve false', async () => {
    const waiters = new PositionWaiters();
    const pending = waiters.wait(5n, undefined, 5_000);
    waiters.rejectAll();
    await expect(pending).resolves.toBe(false);
  });
});

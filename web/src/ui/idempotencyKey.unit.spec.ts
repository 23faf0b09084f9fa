// Proves a send keeps its idempotency key while the same details are retried, and gets a new one
// when the details change or the previous attempt is over; generated keys are RFC 9562 UUIDs.
import { describe, expect, it } from 'vitest';
import { createIdempotencyKeys, newIdempotencyKey } from './idempotencyKey.js';

/** Keys key-1, key-2, ... in order. */
function counter(): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `key-${next}`;
  };
}

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('idempotency keys', () => {
  it('given the same details twice, then the key is reused; new details get a new key', () => {
    const keys = createIdempotencyKeys(counter());
    expect(keys.keyFor('to=bob;amount=5')).toBe('key-1');
    expect(keys.keyFor('to=bob;amount=5')).toBe('key-1');
    expect(keys.keyFor('to=bob;amount=6')).toBe('key-2');
  });

  it('given a settled attempt, then the same details get a new key', () => {
    const keys = createIdempotencyKeys(counter());
    keys.keyFor('same');
    keys.settle();
    expect(keys.keyFor('same')).toBe('key-2');
  });

  it('given crypto.randomUUID, then keys are UUIDs and differ', () => {
    const first = newIdempotencyKey();
    expect(first).toMatch(uuidV4);
    expect(newIdempotencyKey()).not.toBe(first);
  });

  it('given a page without crypto.randomUUID (plain HTTP), then a version 4 UUID is built from random bytes', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey()).toMatch(uuidV4);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});

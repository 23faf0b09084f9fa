// Proves withLivemode: the answer and each item of a list get `livemode`; a value that is not an
// object (a stream's nothing, a string) passes unchanged; nested objects other than list items
// stay as they are; and livemodeSchema describes exactly those places.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { livemodeSchema, withLivemode } from './livemode.js';

describe('withLivemode', () => {
  it('marks an object, false in a sandbox and true in live', () => {
    expect(withLivemode({ id: 'po_1', object: 'payout' }, false)).toEqual({ id: 'po_1', object: 'payout', livemode: false });
    expect(withLivemode({ id: 'po_1', object: 'payout' }, true)).toEqual({ id: 'po_1', object: 'payout', livemode: true });
  });

  it('marks a list and each of its items, and leaves nested objects alone', () => {
    const list = { object: 'list', data: [{ id: 'a', attempts: [{ status: 200 }] }, { id: 'b' }], has_more: false };
    expect(withLivemode(list, false)).toEqual({
      object: 'list',
      data: [
        { id: 'a', attempts: [{ status: 200 }], livemode: false },
        { id: 'b', livemode: false },
      ],
      has_more: false,
      livemode: false,
    });
  });

  it('passes what is not an object unchanged', () => {
    expect(withLivemode(undefined, false)).toBeUndefined();
    expect(withLivemode('text', true)).toBe('text');
    expect(withLivemode([1, 2], true)).toEqual([1, 2]);
  });
});

describe('livemodeSchema', () => {
  it('requires livemode on the object and on the items of its data array', () => {
    const schema = livemodeSchema(z.object({ object: z.literal('list'), data: z.array(z.object({ id: z.string() })) }));
    expect(schema.parse({ object: 'list', data: [{ id: 'a', livemode: true }], livemode: true })).toBeTruthy();
    expect(schema.safeParse({ object: 'list', data: [{ id: 'a' }], livemode: true }).success).toBe(false);
    expect(schema.safeParse({ object: 'list', data: [], livemode: 'no' }).success).toBe(false);
  });
});

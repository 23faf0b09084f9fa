// Proves the retry rule both adapters share: which revisions a retry is looked for at, how
// recorded ids compare with an append's, and how a call over several streams is judged.
import { DuplicateEventIdError } from '@quern/core';
import { describe, expect, it } from 'vitest';
import { compareIds, judgeRetry, retryWindow } from './retry.js';

describe('retryWindow', () => {
  it('looks after the expected revision once the stream has moved past it', () => {
    expect(retryWindow(3n, 2, 5n)).toEqual({ from: 4n, to: 5n });
    expect(retryWindow(3n, 2, 9n)).toEqual({ from: 4n, to: 5n });
    expect(retryWindow('no_stream', 3, 0n)).toEqual({ from: 0n, to: 2n });
  });

  it('looks nowhere when the expected revision still holds, is ahead, or the stream is missing', () => {
    expect(retryWindow(3n, 2, 3n)).toBeUndefined();
    expect(retryWindow(3n, 2, 1n)).toBeUndefined();
    expect(retryWindow(0n, 1, undefined)).toBeUndefined();
    expect(retryWindow('no_stream', 1, undefined)).toBeUndefined();
  });

  it("looks at the stream's last events for 'any', when it has enough of them", () => {
    expect(retryWindow('any', 2, 5n)).toEqual({ from: 4n, to: 5n });
    expect(retryWindow('any', 1, 0n)).toEqual({ from: 0n, to: 0n });
    expect(retryWindow('any', 3, 1n)).toBeUndefined();
    expect(retryWindow('any', 1, undefined)).toBeUndefined();
  });
});

describe('compareIds', () => {
  it('tells all, some and none apart, position by position', () => {
    expect(compareIds(['a', 'b'], ['a', 'b'])).toBe('all');
    expect(compareIds(['a', 'b'], ['a', 'x'])).toBe('some');
    expect(compareIds(['a', 'b'], ['x', 'b'])).toBe('some');
    expect(compareIds(['a', 'b'], ['a'])).toBe('some');
    expect(compareIds(['a', 'b'], ['b', 'a'])).toBe('none');
    expect(compareIds(['a'], [])).toBe('none');
  });
});

describe('judgeRetry', () => {
  it('answers recorded when every stream is, fresh when none is', () => {
    expect(judgeRetry([{ streamId: 's', recorded: 'all' }])).toBe('recorded');
    expect(
      judgeRetry([
        { streamId: 's', recorded: 'all' },
        { streamId: 't', recorded: 'all' },
      ]),
    ).toBe('recorded');
    expect(
      judgeRetry([
        { streamId: 's', recorded: 'none' },
        { streamId: 't', recorded: 'none' },
      ]),
    ).toBe('fresh');
  });

  it('refuses a partly recorded stream, or a mix of recorded and fresh streams, naming the stream', () => {
    expect(() => judgeRetry([{ streamId: 's', recorded: 'some' }])).toThrow(DuplicateEventIdError);
    const mixed = () =>
      judgeRetry([
        { streamId: 's', recorded: 'none' },
        { streamId: 't', recorded: 'all' },
      ]);
    expect(mixed).toThrow(DuplicateEventIdError);
    expect(mixed).toThrow(/Stream t:/);
  });
});

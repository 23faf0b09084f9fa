// Proves the checkpoint value is read strictly: a position, a rebuild fence or nothing, and any other value is refused.
import { describe, expect, it } from 'vitest';
import { fenceValue, formatPosition, parseCheckpoint } from './checkpoint.js';

describe('parseCheckpoint', () => {
  it('given no value, when parsed, then it means the start of the log', () => {
    expect(parseCheckpoint(null)).toEqual({ kind: 'none' });
  });

  it('given a decimal position, when parsed, then it yields that position as a bigint', () => {
    expect(parseCheckpoint('0')).toEqual({ kind: 'position', position: 0n });
    expect(parseCheckpoint('18446744073709551615')).toEqual({ kind: 'position', position: 18446744073709551615n });
  });

  it('given a rebuild fence, when parsed, then it names the rebuild that holds it', () => {
    expect(parseCheckpoint(fenceValue('abc'))).toEqual({ kind: 'fenced', owner: 'abc' });
  });

  it.each(['', '-1', '01', '1.5', ' 1', 'abc', 'rebuilding:', '123456789012345678901'])(
    'given %j, when parsed, then it is refused',
    (value) => {
      expect(() => parseCheckpoint(value)).toThrow(/invalid value/);
    },
  );
});

describe('formatPosition', () => {
  it('given a position, when formatted, then it round-trips through parseCheckpoint', () => {
    expect(parseCheckpoint(formatPosition(42n))).toEqual({ kind: 'position', position: 42n });
  });

  it('given a negative position, when formatted, then it is refused', () => {
    expect(() => formatPosition(-1n)).toThrow(/negative/);
  });
});

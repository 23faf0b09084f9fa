// Proves the raw-text depth scan: it counts arrays and objects opened at once, ignores brackets
// inside strings (escaped quotes included), reads bytes and strings alike, and cannot be fooled
// by closers sent first.
import { describe, expect, it } from 'vitest';
import { JSON_DEPTH_MAX, jsonNestsDeeperThan } from './json-depth.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestsDeeperThan', () => {
  it('given nesting at and one past the limit, when scanned, then only the deeper one is refused', () => {
    expect(jsonNestsDeeperThan(nested(JSON_DEPTH_MAX))).toBe(false);
    expect(jsonNestsDeeperThan(nested(JSON_DEPTH_MAX + 1))).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":[1,{"c":2}]}}', 4)).toBe(false);
  });

  it('given 5,000 nested arrays as bytes, when scanned, then refused without recursion', () => {
    expect(jsonNestsDeeperThan(Buffer.from(nested(5000)))).toBe(true);
    expect(jsonNestsDeeperThan(Buffer.from(`{"a":[${'{"b":1},'.repeat(10_000)}{}]}`))).toBe(false);
  });

  it('given brackets inside strings, escaped quotes and backslashes, when scanned, then they do not count', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ to: '['.repeat(100) }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ to: `\\"${'{'.repeat(100)}` }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(`["\\\\",${nested(3)}]`, 3)).toBe(true);
    expect(jsonNestsDeeperThan(Buffer.from(JSON.stringify({ name: 'ñandú [' })), 1)).toBe(false);
  });

  it('given closers before openers, when scanned, then the count never goes below zero', () => {
    expect(jsonNestsDeeperThan(']'.repeat(100) + '['.repeat(JSON_DEPTH_MAX + 1))).toBe(true);
  });

  it('given no nesting at all or invalid text, when scanned, then it is not judged too deep', () => {
    expect(jsonNestsDeeperThan('')).toBe(false);
    expect(jsonNestsDeeperThan('"just a string"')).toBe(false);
    expect(jsonNestsDeeperThan('{"unterminated')).toBe(false);
  });
});

// Proves that per-address limits count an IPv6 client by its /64, so a client cannot escape a
// limit by rotating addresses inside its own prefix, while IPv4 clients count per address.
import { describe, expect, it } from 'vitest';
import { limitKeyOf } from './client-address.js';

describe('limitKeyOf', () => {
  it('gives every address of one IPv6 /64 the same key, in any spelling', () => {
    const keys = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0db8:0001:0002:0000:0000:0000:0042',
      '2001:DB8:1:2::abcd',
    ].map(limitKeyOf);
    expect(new Set(keys)).toEqual(new Set(['2001:db8:1:2::/64']));
  });

  it('gives neighbouring /64s different keys', () => {
    expect(limitKeyOf('2001:db8:1:2::1')).not.toBe(limitKeyOf('2001:db8:1:3::1'));
  });

  it('counts IPv4 per address, also when written as IPv4-mapped IPv6', () => {
    expect(limitKeyOf('203.0.113.9')).toBe('203.0.113.9');
    expect(limitKeyOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(limitKeyOf('203.0.113.10')).not.toBe(limitKeyOf('203.0.113.9'));
  });

  it('keeps loopback and what is not an address apart', () => {
    expect(limitKeyOf('::1')).toBe('::/64');
    expect(limitKeyOf('127.0.0.1')).toBe('127.0.0.1');
    expect(limitKeyOf('unknown')).toBe('unknown');
  });
});

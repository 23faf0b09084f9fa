// The one loopback test: every address of 127.0.0.0/8, ::1 in any spelling, IPv4-mapped loopback,
// localhost and its subdomains; nothing that merely starts like them.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback.js';

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    'localhost',
    'LOCALHOST',
    'app.localhost',
  ])('given %s, then it is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each([
    '127.evil.example',
    '127.0.0.1.evil.example',
    '128.0.0.1',
    '10.0.0.1',
    '::2',
    '::ffff:10.0.0.1',
    'localhost.evil.example',
    'mylocalhost',
    '',
    '[',
  ])('given %s, then it is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

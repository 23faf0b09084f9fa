// Proves that loopback origins are trusted for cookie-authenticated calls only when PUBLIC_URL
// is itself a loopback address, never on a deployment at a real address.
import { describe, expect, it } from 'vitest';
import { allowedOriginsFor, isLoopbackUrl } from './allowed-origins.js';

describe('allowedOriginsFor', () => {
  it('adds the bound port on localhost and 127.0.0.1 when PUBLIC_URL is local', () => {
    for (const publicUrl of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://quern.localhost', 'http://[::1]:3000'])
      expect([...allowedOriginsFor(publicUrl, 4123)].sort(), publicUrl).toEqual(
        [new URL(publicUrl).origin, 'http://127.0.0.1:4123', 'http://localhost:4123'].sort(),
      );
  });

  it('trusts only the public origin on a real address', () => {
    for (const publicUrl of [
      'https://pay.example.com',
      'https://localhost.example.com',
      'http://10.0.0.5:3000',
      'https://127.0.0.1.nip.io',
    ])
      expect([...allowedOriginsFor(publicUrl, 4123)], publicUrl).toEqual([new URL(publicUrl).origin]);
  });

  it('names loopback hosts exactly', () => {
    expect(isLoopbackUrl('http://localhost')).toBe(true);
    expect(isLoopbackUrl('http://127.1.2.3:9')).toBe(true);
    expect(isLoopbackUrl('http://mylocalhost')).toBe(false);
    expect(isLoopbackUrl('http://localhost.evil.example')).toBe(false);
  });
});

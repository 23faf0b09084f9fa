// Proves the API key's format (the mode's prefix + 43 base64url characters from 32 bytes), the mode
// read back from a key, its SHA-256 hash, the base64url encoding against RFC 4648's vectors, and
// the masked form (the key's own prefix … last four).
import { describe, expect, it } from 'vitest';
import {
  API_KEY_PATTERN,
  apiKeyModeOf,
  base64url,
  formatApiKey,
  hashApiKey,
  isApiKeyFormat,
  keyDisplayParts,
  maskApiKey,
} from './key-format.js';

const bytes = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + seed) & 255);

describe('formatApiKey', () => {
  it('given 32 bytes in a sandbox, then the key is qk_test_ and 43 base64url characters', () => {
    const key = formatApiKey(bytes(1), 'sandbox');
    expect(key).toMatch(/^qk_test_[A-Za-z0-9_-]{43}$/);
    expect(key).toMatch(API_KEY_PATTERN);
    expect(isApiKeyFormat(key)).toBe(true);
    expect(apiKeyModeOf(key)).toBe('sandbox');
  });

  it('given 32 bytes in live, then the key is qk_live_ and 43 base64url characters', () => {
    const key = formatApiKey(bytes(1), 'live');
    expect(key).toMatch(/^qk_live_[A-Za-z0-9_-]{43}$/);
    expect(isApiKeyFormat(key)).toBe(true);
    expect(apiKeyModeOf(key)).toBe('live');
  });

  it('given any other number of bytes, then it refuses', () => {
    expect(() => formatApiKey(new Uint8Array(31), 'sandbox')).toThrow();
    expect(() => formatApiKey(new Uint8Array(33), 'live')).toThrow();
  });

  it('encodes the RFC 4648 test vectors, without padding, with - and _ for + and /', () => {
    const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'Zg'],
      ['fo', 'Zm8'],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg'],
      ['fooba', 'Zm9vYmE'],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [text, encoded] of vectors) expect(base64url(ascii(text))).toBe(encoded);
    expect(base64url(Uint8Array.from([0xfb, 0xff]))).toBe('-_8');
  });
});

describe('isApiKeyFormat', () => {
  it.each([
    '',
    'qk_live_',
    'qk_test_',
    `qk_prod_${'a'.repeat(43)}`,
    `QK_TEST_${'a'.repeat(43)}`,
    `qk_test_${'a'.repeat(42)}`,
    `qk_live_${'a'.repeat(42)}`,
    `qk_live_${'a'.repeat(44)}`,
    `qk_live_${'a'.repeat(42)}=`,
  ])('refuses %j, which has no mode', (value) => {
    expect(isApiKeyFormat(value)).toBe(false);
    expect(apiKeyModeOf(value)).toBeUndefined();
  });
});

describe('hashApiKey', () => {
  it('is SHA-256 of the key in lower-case hex', () => {
    // The expected values were computed with Node's base64url and SHA-256.
    const key = formatApiKey(bytes(2), 'live');
    expect(key).toBe('qk_live_AidMcZa74AUqT3SZvuMILVJ3nMHmCzBVep_E6Q4zWH0');
    expect(hashApiKey(key)).toBe('7901418d4a7b17a8983852fbf977a06af1aca20f14d1de0fbcf34024ab72f786');
    expect(hashApiKey(key)).not.toBe(hashApiKey(formatApiKey(bytes(3), 'live')));
    // The same bytes in the other mode are another key.
    expect(hashApiKey(formatApiKey(bytes(2), 'sandbox'))).not.toBe(hashApiKey(key));
  });
});

describe('maskApiKey', () => {
  it("shows the key's own prefix and the last four characters only", () => {
    for (const mode of ['sandbox', 'live'] as const) {
      const key = formatApiKey(bytes(4), mode);
      const masked = maskApiKey(keyDisplayParts(key));
      expect(masked).toBe(`${mode === 'sandbox' ? 'qk_test_' : 'qk_live_'}…${key.slice(-4)}`);
      expect(masked).not.toContain(key.slice(8, -4));
    }
  });
});

// Proves the API key's format (prefix + 43 base64url characters from 32 bytes), its SHA-256
// hash, the base64url encoding against RFC 4648's vectors, and the masked form (prefix … last four).
import { describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, base64url, formatApiKey, hashApiKey, isApiKeyFormat, keyDisplayParts, maskApiKey } from './key-format.js';

const bytes = (seed: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + seed) & 255);

describe('formatApiKey', () => {
  it('given 32 bytes, then the key is qk_live_ and 43 base64url characters', () => {
    const key = formatApiKey(bytes(1));
    expect(key.length).toBe(51);
    expect(key).toMatch(API_KEY_PATTERN);
    expect(isApiKeyFormat(key)).toBe(true);
  });

  it('given any other number of bytes, then it refuses', () => {
    expect(() => formatApiKey(new Uint8Array(31))).toThrow();
    expect(() => formatApiKey(new Uint8Array(33))).toThrow();
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
    `qk_test_${'a'.repeat(43)}`,
    `qk_live_${'a'.repeat(42)}`,
    `qk_live_${'a'.repeat(44)}`,
    `qk_live_${'a'.repeat(42)}=`,
  ])('refuses %j', (value) => expect(isApiKeyFormat(value)).toBe(false));
});

describe('hashApiKey', () => {
  it('is SHA-256 of the key in lower-case hex', () => {
    // The expected values were computed with Node's base64url and SHA-256.
    const key = formatApiKey(bytes(2));
    expect(key).toBe('qk_live_AidMcZa74AUqT3SZvuMILVJ3nMHmCzBVep_E6Q4zWH0');
    expect(hashApiKey(key)).toBe('7901418d4a7b17a8983852fbf977a06af1aca20f14d1de0fbcf34024ab72f786');
    expect(hashApiKey(key)).not.toBe(hashApiKey(formatApiKey(bytes(3))));
  });
});

describe('maskApiKey', () => {
  it('shows the prefix and the last four characters only', () => {
    const key = formatApiKey(bytes(4));
    const masked = maskApiKey(keyDisplayParts(key));
    expect(masked).toBe(`qk_live_…${key.slice(-4)}`);
    expect(masked).not.toContain(key.slice(8, -4));
  });
});

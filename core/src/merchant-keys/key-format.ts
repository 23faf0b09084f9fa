/**
 * The API key's format: a recognisable prefix (so a leaked key is easy to spot in logs and by
 * secret scanners) and 32 random bytes in base64url. The random bytes come in as data, so this
 * stays pure. The stored form is SHA-256 of the key: the key carries 256 bits of entropy, so a
 * slow password hash would add nothing but latency to every authenticated call (ADR 030).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '../shared/errors.js';

export const API_KEY_PREFIX = 'qk_live_';
export const API_KEY_RANDOM_BYTES = 32;
/** 32 bytes are 43 base64url characters without padding. */
export const API_KEY_PATTERN = /^qk_live_[A-Za-z0-9_-]{43}$/;
/** Characters of the key shown at the end of the masked form. */
export const API_KEY_VISIBLE_TAIL = 4;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** RFC 4648 base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i] as number;
    const b1 = bytes[i + 1];
    const b2 = bytes[i + 2];
    const n = (b0 << 16) | ((b1 ?? 0) << 8) | (b2 ?? 0);
    out += (ALPHABET[(n >> 18) & 63] as string) + (ALPHABET[(n >> 12) & 63] as string);
    if (b1 !== undefined) out += ALPHABET[(n >> 6) & 63] as string;
    if (b2 !== undefined) out += ALPHABET[n & 63] as string;
  }
  return out;
}

/** A new key from exactly API_KEY_RANDOM_BYTES random bytes. */
export function formatApiKey(randomBytes: Uint8Array): string {
  if (randomBytes.length !== API_KEY_RANDOM_BYTES) throw new AppError('VALIDATION', 'errors:internal');
  return API_KEY_PREFIX + base64url(randomBytes);
}

export const isApiKeyFormat = (value: string): boolean => API_KEY_PATTERN.test(value);

/** SHA-256 of the key, lower-case hex: what is stored and what a lookup is keyed by. */
export const hashApiKey = (key: string): string => bytesToHex(sha256(utf8ToBytes(key)));

/** What is kept to show the key later: its prefix and its last four characters. */
export function keyDisplayParts(key: string): { prefix: string; last4: string } {
  return { prefix: API_KEY_PREFIX, last4: key.slice(-API_KEY_VISIBLE_TAIL) };
}

/** The masked key key-get answers: prefix, an ellipsis, last four (`qk_live_…a1B2`). */
export const maskApiKey = (parts: { prefix: string; last4: string }): string => `${parts.prefix}…${parts.last4}`;

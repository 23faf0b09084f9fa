/**
 * The API key's format: a recognisable prefix (so a leaked key is easy to spot in logs and by
 * secret scanners) that also names the mode it was issued in (`qk_test_` in a sandbox, `qk_live_`
 * in a live Quern, as Stripe's sk_test_/sk_live_; ADR 050), and 32 random bytes in base64url. The random bytes come in as data, so this
 * stays pure. The stored form is SHA-256 of the key: the key carries 256 bits of entropy, so a
 * slow password hash would add nothing but latency to every authenticated call (ADR 030).
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { AppError } from '../shared/errors.js';
import type { QuernMode } from '../shared/quern-mode.js';

/** The prefix of the keys each mode issues. */
export const API_KEY_PREFIXES = { sandbox: 'qk_test_', live: 'qk_live_' } as const satisfies Record<QuernMode, string>;
export type ApiKeyPrefix = (typeof API_KEY_PREFIXES)[QuernMode];
export const API_KEY_RANDOM_BYTES = 32;
/** 32 bytes are 43 base64url characters without padding; either mode's prefix. */
export const API_KEY_PATTERN = /^qk_(?:test|live)_[A-Za-z0-9_-]{43}$/;
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

/** A new key of `mode` from exactly API_KEY_RANDOM_BYTES random bytes. */
export function formatApiKey(randomBytes: Uint8Array, mode: QuernMode): string {
  if (randomBytes.length !== API_KEY_RANDOM_BYTES) throw new AppError('VALIDATION', 'errors:internal');
  return API_KEY_PREFIXES[mode] + base64url(randomBytes);
}

export const isApiKeyFormat = (value: string): boolean => API_KEY_PATTERN.test(value);

/** The mode a well-formed key was issued in, by its prefix; undefined for anything else. */
export function apiKeyModeOf(value: string): QuernMode | undefined {
  if (!isApiKeyFormat(value)) return undefined;
  return value.startsWith(API_KEY_PREFIXES.sandbox) ? 'sandbox' : 'live';
}

/** SHA-256 of the key, lower-case hex: what is stored and what a lookup is keyed by. */
export const hashApiKey = (key: string): string => bytesToHex(sha256(utf8ToBytes(key)));

/** What is kept to show the key later: its own prefix (its mode's) and its last four characters. */
export function keyDisplayParts(key: string): { prefix: string; last4: string } {
  return { prefix: key.slice(0, API_KEY_PREFIXES.live.length), last4: key.slice(-API_KEY_VISIBLE_TAIL) };
}

/** The masked key key-get answers: prefix, an ellipsis, last four (`qk_test_…a1B2`). */
export const maskApiKey = (parts: { prefix: string; last4: string }): string => `${parts.prefix}…${parts.last4}`;

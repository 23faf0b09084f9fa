/**
 * Base58 and Base58Check, the text encodings of millix key identifiers (the same as Bitcoin's).
 *
 * Base58 drops 0, O, I and l from the digits and letters so that a person copying an address by
 * hand cannot confuse them; millix relies on that: its address version markers `0a0` and `lal`
 * contain characters that cannot occur inside a Base58 part, so splitting an address is exact.
 *
 * Base58Check = Base58(version byte ‖ payload ‖ checksum), where checksum is the first 4 bytes of
 * SHA-256(SHA-256(version byte ‖ payload)). The checksum catches typing mistakes, it is not a
 * security feature. SHA-256 comes from @noble/hashes (audited, pure JavaScript, no I/O).
 */
import { sha256 } from '@noble/hashes/sha2.js';

export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_RADIX = 58n;
/** Bytes of checksum appended by Base58Check. */
export const BASE58CHECK_CHECKSUM_BYTES = 4;
/**
 * Upper bound on what these functions accept. Millix parts are 25 bytes (34 characters); the
 * bounds leave room for other Base58Check payloads while keeping the bigint work tiny.
 */
export const BASE58_BYTES_MAX = 64;
export const BASE58_TEXT_LENGTH_MAX = 90;

const digitValue = new Map<string, bigint>([...BASE58_ALPHABET].map((char, index) => [char, BigInt(index)]));

export function isBase58(text: string): boolean {
  for (const char of text) if (!digitValue.has(char)) return false;
  return true;
}

/** Encodes bytes; each leading zero byte becomes a leading '1', as in Bitcoin. */
export function base58Encode(bytes: Uint8Array): string {
  if (bytes.length > BASE58_BYTES_MAX) throw new RangeError(`base58Encode: at most ${BASE58_BYTES_MAX} bytes`);
  let leadingZeroCount = 0;
  while (leadingZeroCount < bytes.length && bytes[leadingZeroCount] === 0) leadingZeroCount += 1;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  let digits = '';
  while (value > 0n) {
    digits = BASE58_ALPHABET.charAt(Number(value % BASE58_RADIX)) + digits;
    value /= BASE58_RADIX;
  }
  return '1'.repeat(leadingZeroCount) + digits;
}

/** Decodes Base58 text; undefined when it holds a character outside the alphabet or is too long. */
export function base58Decode(text: string): Uint8Array | undefined {
  if (text.length > BASE58_TEXT_LENGTH_MAX) return undefined;
  let leadingOneCount = 0;
  while (leadingOneCount < text.length && text[leadingOneCount] === '1') leadingOneCount += 1;
  let value = 0n;
  for (const char of text) {
    const digit = digitValue.get(char);
    if (digit === undefined) return undefined;
    value = value * BASE58_RADIX + digit;
  }
  const body: number[] = [];
  while (value > 0n) {
    body.unshift(Number(value & 0xffn));
    value >>= 8n;
  }
  const bytes = new Uint8Array(leadingOneCount + body.length);
  bytes.set(body, leadingOneCount);
  return bytes;
}

function checksumOf(bytes: Uint8Array): Uint8Array {
  return sha256(sha256(bytes)).subarray(0, BASE58CHECK_CHECKSUM_BYTES);
}

export function base58CheckEncode(versionByte: number, payload: Uint8Array): string {
  if (!Number.isInteger(versionByte) || versionByte < 0 || versionByte > 0xff) {
    throw new RangeError(`base58CheckEncode: version byte must be 0..255, got ${versionByte}`);
  }
  const versioned = new Uint8Array(1 + payload.length);
  versioned[0] = versionByte;
  versioned.set(payload, 1);
  const full = new Uint8Array(versioned.length + BASE58CHECK_CHECKSUM_BYTES);
  full.set(versioned, 0);
  full.set(checksumOf(versioned), versioned.length);
  return base58Encode(full);
}

export type Base58CheckFailure = 'alphabet' | 'length' | 'checksum';
export type Base58CheckDecoded = { ok: true; versionByte: number; payload: Uint8Array } | { ok: false; reason: Base58CheckFailure };

export function base58CheckDecode(text: string): Base58CheckDecoded {
  if (text.length === 0 || text.length > BASE58_TEXT_LENGTH_MAX) return { ok: false, reason: 'length' };
  const bytes = base58Decode(text);
  if (!bytes) return { ok: false, reason: 'alphabet' };
  // A version byte, at least nothing of payload, and the checksum.
  if (bytes.length < 1 + BASE58CHECK_CHECKSUM_BYTES) return { ok: false, reason: 'length' };
  const bodyLength = bytes.length - BASE58CHECK_CHECKSUM_BYTES;
  const expected = checksumOf(bytes.subarray(0, bodyLength));
  for (let i = 0; i < BASE58CHECK_CHECKSUM_BYTES; i += 1) {
    if (bytes[bodyLength + i] !== expected[i]) return { ok: false, reason: 'checksum' };
  }
  return { ok: true, versionByte: bytes[0] ?? 0, payload: bytes.slice(1, bodyLength) };
}

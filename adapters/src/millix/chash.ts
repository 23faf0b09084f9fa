/**
 * Millix transaction ids ("cHash288"), so that the simulated network's hashes and the fake
 * node's look exactly like the real network's (and pass the same check a millix node applies).
 *
 * Source: millix-node `core/crypto/chash.js` (getCHash288, isCHashValid) and
 * `core/wallet/wallet-utils.js` (`transaction_id = objectHash.getCHash288(transaction)`):
 *   1. hash = SHA-256(data), 256 bits;
 *   2. checksum = bytes 5, 13, 21 and 29 of SHA-256(hash), 32 bits;
 *   3. the 32 checksum bits are mixed into the hash bits at offsets taken from the digits of pi
 *      (each non-zero digit + 4 advances the offset), giving 288 bits = 36 bytes;
 *   4. Base58 (Bitcoin alphabet): 48 to 50 characters, usually 49.
 * The unit spec checks real ids from millix-node's genesis-config.js.
 */
import { createHash } from 'node:crypto';
import { base58Decode, base58Encode } from '@quern/core/wallet';

const PI_DIGITS = '14159265358979323846264338327950288419716939937510';
const CHASH_BITS = 288;
const CHECKSUM_BITS = 32;
const CHASH_BYTES = CHASH_BITS / 8;
/** Longest Base58 text of 36 bytes (all leading zeros would be 36 '1's; real ids are 48-50). */
const CHASH_TEXT_LENGTH_MAX = 50;

/** Bit positions of the checksum bits in the 288-bit id, as millix's calcOffsets(288). */
const checksumOffsets: readonly number[] = (() => {
  const offsets: number[] = [];
  let offset = 0;
  for (const digit of PI_DIGITS) {
    const step = Number(digit);
    if (step === 0) continue;
    offset += step + 4;
    if (offset >= CHASH_BITS) break;
    offsets.push(offset);
  }
  if (offsets.length !== CHECKSUM_BITS) throw new Error('cHash288: wrong number of checksum offsets');
  return offsets;
})();

const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

function checksumOf(cleanData: Uint8Array): Buffer {
  const full = sha256(cleanData);
  return Buffer.from([full[5] ?? 0, full[13] ?? 0, full[21] ?? 0, full[29] ?? 0]);
}

const toBits = (bytes: Uint8Array): string => [...bytes].map((byte) => byte.toString(2).padStart(8, '0')).join('');

function fromBits(bits: string): Uint8Array {
  const bytes = new Uint8Array(bits.length / 8);
  for (let index = 0; index < bytes.length; index += 1) bytes[index] = Number.parseInt(bits.slice(index * 8, index * 8 + 8), 2);
  return bytes;
}

/** The millix transaction id of `data` (millix hashes its canonical JSON of the transaction). */
export function cHash288(data: string): string {
  const clean = toBits(sha256(data));
  const checksum = toBits(checksumOf(sha256(data)));
  let mixed = '';
  let start = 0;
  checksumOffsets.forEach((offset, index) => {
    const end = offset - index;
    mixed += clean.slice(start, end) + checksum.charAt(index);
    start = end;
  });
  mixed += clean.slice(start);
  return base58Encode(fromBits(mixed));
}

/** Whether `text` is a well-formed millix transaction id: 36 bytes of Base58 whose checksum bits match. */
export function isMillixTransactionId(text: string): boolean {
  if (typeof text !== 'string' || text.length === 0 || text.length > CHASH_TEXT_LENGTH_MAX) return false;
  const bytes = base58Decode(text);
  if (!bytes || bytes.length !== CHASH_BYTES || base58Encode(bytes) !== text) return false;
  const bits = toBits(bytes);
  const offsets = new Set(checksumOffsets);
  let clean = '';
  let checksum = '';
  for (let index = 0; index < bits.length; index += 1) {
    if (offsets.has(index)) checksum += bits.charAt(index);
    else clean += bits.charAt(index);
  }
  return toBits(checksumOf(fromBits(clean))) === checksum;
}

/**
 * Millix addresses: the one parser and validator that every part of Quern uses.
 *
 * Format (millix-node's `address_base + address_version + address_key_identifier`):
 *
 *     <base: Base58Check> <version marker: "0a0" mainnet, "lal" testnet> <key identifier: Base58Check>
 *     16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM   0a0   16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM   (without the spaces)
 *
 * - Each part is Base58Check(version byte ‖ 20-byte hash ‖ 4-byte checksum), 25 bytes. The
 *   version byte is 0x00 on mainnet (so the part starts with '1') and 0x6f on testnet (the part
 *   starts with 'm' or 'n'), as millix-node's getAddressFromPublicKey writes them. The 20-byte
 *   hash is RIPEMD-160(SHA-256(public key)); Quern never sees the key, only the 20 bytes.
 * - The key identifier names the wallet (its first key); the base names the address. For a
 *   wallet's default address, millix uses the key identifier as the base too, and so does
 *   createAddress: a Quern wallet has exactly one (default) address.
 * - A part is usually 34 characters (sometimes fewer when the hash starts with zero bits), so an
 *   address is usually 34 + 3 + 34 = 71 characters.
 * - The markers cannot occur inside a part: Base58 has no '0' and no 'l'. Splitting is exact.
 *
 * parseAddress is strict: no trimming, no case folding. Callers that take typed input trim first
 * (contracts.ts does).
 */
import { base58CheckDecode, base58CheckEncode, isBase58 } from './base58.js';

export type MillixNetwork = 'mainnet' | 'testnet';
export const millixNetworks: readonly MillixNetwork[] = ['mainnet', 'testnet'];

export const ADDRESS_VERSION_MARKER: Readonly<Record<MillixNetwork, string>> = { mainnet: '0a0', testnet: 'lal' };
export const ADDRESS_VERSION_BYTE: Readonly<Record<MillixNetwork, number>> = { mainnet: 0x00, testnet: 0x6f };
/** RIPEMD-160 output size. */
export const KEY_IDENTIFIER_BYTES = 20;
/** Longest text parseAddress looks at; the longest valid address is 35 + 3 + 35 = 73 characters. */
export const ADDRESS_TEXT_LENGTH_MAX = 80;

export type AddressFailure =
  | 'empty'
  | 'tooLong'
  /** Neither "0a0" nor "lal" occurs. */
  | 'missingVersion'
  /** A marker occurs more than once, or both markers occur. */
  | 'ambiguousVersion'
  /** A character outside the Base58 alphabet (0, O, I, l, punctuation, spaces...). */
  | 'invalidCharacter'
  /** A part decodes to something other than version byte + 20 bytes + checksum. */
  | 'badLength'
  | 'badChecksum'
  /** A part's version byte does not belong to the network its marker names. */
  | 'networkMismatch';

export interface ParsedAddress {
  ok: true;
  /** The address as given (valid addresses have one spelling only). */
  address: string;
  base: string;
  /** The version marker, "0a0" or "lal". */
  version: string;
  keyIdentifier: string;
  network: MillixNetwork;
  keyIdentifierBytes: Uint8Array;
}
export type AddressParseResult = ParsedAddress | { ok: false; reason: AddressFailure };

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

type PartResult = { ok: true; hash: Uint8Array } | { ok: false; reason: AddressFailure };

function parsePart(part: string, network: MillixNetwork): PartResult {
  if (part.length === 0) return { ok: false, reason: 'badLength' };
  if (!isBase58(part)) return { ok: false, reason: 'invalidCharacter' };
  const decoded = base58CheckDecode(part);
  if (!decoded.ok) return { ok: false, reason: decoded.reason === 'checksum' ? 'badChecksum' : 'badLength' };
  if (decoded.payload.length !== KEY_IDENTIFIER_BYTES) return { ok: false, reason: 'badLength' };
  if (decoded.versionByte !== ADDRESS_VERSION_BYTE[network]) return { ok: false, reason: 'networkMismatch' };
  return { ok: true, hash: decoded.payload };
}

function parseAddressUncached(text: string): AddressParseResult {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, reason: 'empty' };
  if (text.length > ADDRESS_TEXT_LENGTH_MAX) return { ok: false, reason: 'tooLong' };
  const found = millixNetworks.map((network) => ({ network, count: occurrences(text, ADDRESS_VERSION_MARKER[network]) }));
  const total = found.reduce((sum, entry) => sum + entry.count, 0);
  if (total === 0) return { ok: false, reason: isBase58(text) ? 'missingVersion' : 'invalidCharacter' };
  if (total > 1) return { ok: false, reason: 'ambiguousVersion' };
  const network = found.find((entry) => entry.count === 1)?.network ?? 'mainnet';
  const version = ADDRESS_VERSION_MARKER[network];
  const at = text.indexOf(version);
  const base = text.slice(0, at);
  const keyIdentifier = text.slice(at + version.length);
  const basePart = parsePart(base, network);
  if (!basePart.ok) return basePart;
  const keyPart = parsePart(keyIdentifier, network);
  if (!keyPart.ok) return keyPart;
  return { ok: true, address: text, base, version, keyIdentifier, network, keyIdentifierBytes: keyPart.hash };
}

/**
 * Addresses parsed before, valid ones only, bounded. A send parses the same few addresses several
 * times (the payee's, the payer's, both again for the self-send check), and each parse is two
 * Base58Check decodes with double SHA-256; parsing is a pure function of the text, so its result
 * can be reused. The oldest entry is dropped past the bound.
 */
const PARSED_ADDRESSES_MAX = 10_000;
const parsedAddresses = new Map<string, ParsedAddress>();

export function parseAddress(text: string): AddressParseResult {
  const cached = typeof text === 'string' ? parsedAddresses.get(text) : undefined;
  // A copy of the key bytes: a caller may write into the array it gets.
  if (cached) return { ...cached, keyIdentifierBytes: cached.keyIdentifierBytes.slice() };
  const parsed = parseAddressUncached(text);
  if (!parsed.ok) return parsed;
  if (parsedAddresses.size >= PARSED_ADDRESSES_MAX) parsedAddresses.delete(parsedAddresses.keys().next().value as string);
  parsedAddresses.set(text, { ...parsed, keyIdentifierBytes: parsed.keyIdentifierBytes.slice() });
  return parsed;
}

/** True for a valid address, on the given network when one is named. */
export function isValidAddress(text: unknown, network?: MillixNetwork): boolean {
  if (typeof text !== 'string') return false;
  const parsed = parseAddress(text);
  return parsed.ok && (network === undefined || parsed.network === network);
}

function assertKeyBytes(name: string, bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array) || bytes.length !== KEY_IDENTIFIER_BYTES) {
    throw new RangeError(`${name} must be ${KEY_IDENTIFIER_BYTES} bytes`);
  }
}

/** An address from its two 20-byte hashes; see createAddress for a wallet's default address. */
export function composeAddress(baseBytes: Uint8Array, keyIdentifierBytes: Uint8Array, network: MillixNetwork): string {
  assertKeyBytes('baseBytes', baseBytes);
  assertKeyBytes('keyIdentifierBytes', keyIdentifierBytes);
  const versionByte = ADDRESS_VERSION_BYTE[network];
  const address =
    base58CheckEncode(versionByte, baseBytes) + ADDRESS_VERSION_MARKER[network] + base58CheckEncode(versionByte, keyIdentifierBytes);
  // What we write must be what we accept; a failure here is a bug, never user input.
  if (!parseAddress(address).ok) throw new Error(`composeAddress produced an invalid address: ${address}`);
  return address;
}

/**
 * A wallet's default address. The 20 bytes come from the caller (random bytes for a new Quern
 * wallet, or RIPEMD-160(SHA-256(public key)) for a real millix key): the domain never draws
 * randomness itself.
 */
export function createAddress(keyIdentifierBytes: Uint8Array, network: MillixNetwork): string {
  return composeAddress(keyIdentifierBytes, keyIdentifierBytes, network);
}

/**
 * Another address of the wallet that holds `walletAddress`: a fresh base (20 random bytes) with the
 * wallet's key identifier, as millix wallets hold many addresses (issue 27: an invoice's own
 * address). Throws when `walletAddress` is not a valid address: callers pass a wallet's own.
 */
export function deriveAddress(walletAddress: string, baseBytes: Uint8Array): string {
  const parsed = parseAddress(walletAddress);
  if (!parsed.ok) throw new Error(`deriveAddress needs a valid wallet address, not ${walletAddress}`);
  return composeAddress(baseBytes, parsed.keyIdentifierBytes, parsed.network);
}

/**
 * Whether two valid addresses belong to the same millix wallet (same key identifier and
 * network). False when either is invalid.
 */
export function isSameWallet(addressA: string, addressB: string): boolean {
  const a = parseAddress(addressA);
  const b = parseAddress(addressB);
  return a.ok && b.ok && a.network === b.network && a.keyIdentifier === b.keyIdentifier;
}

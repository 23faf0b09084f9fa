/**
 * Quern's statement signing key (ADR 090): an Ed25519 key from a 32-byte seed, STATEMENT_SIGNING_KEY
 * (64 hex digits or base64) or, unset, derived with HKDF-SHA-256 from the app secret, so a fresh
 * `npm start` signs with a key that stays the same across restarts. The public key is published at
 * GET /api/v1/statement-key; statements are signed with node:crypto's Ed25519, which is deterministic
 * (RFC 8032): the same statement always gets the same signature.
 */
import { createPrivateKey, createPublicKey, hkdfSync, type KeyObject, sign, verify } from 'node:crypto';

/** The PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
/** The SPKI DER prefix of an Ed25519 public key; the 32 raw bytes follow it. */
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HKDF_INFO = 'quern statement signing key v1';

export interface StatementSigner {
  /** The raw 32-byte public key, base64. */
  publicKeyBase64: string;
  publicKeyPem: string;
  sign(message: Uint8Array): string;
}

/** Reads a 32-byte seed written as 64 hex digits or base64; undefined when it is neither. */
export function parseSeed(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed, 'base64');
  return bytes.length === 32 ? bytes : undefined;
}

export const seedFromAppSecret = (appSecret: string): Buffer => Buffer.from(hkdfSync('sha256', appSecret, Buffer.alloc(0), HKDF_INFO, 32));

export function statementSigner(seed: Buffer): StatementSigner {
  if (seed.length !== 32) throw new Error('The statement signing key must be 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey);
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return {
    publicKeyBase64: spki.subarray(SPKI_ED25519_PREFIX.length).toString('base64'),
    publicKeyPem: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    sign: (message) => sign(null, message, privateKey).toString('base64'),
  };
}

/** A public key given as raw base64 (32 bytes) or PEM. */
export function publicKeyOf(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey(trimmed);
  const raw = Buffer.from(trimmed, 'base64');
  if (raw.length !== 32) throw new Error('A statement public key is 32 bytes in base64, or PEM');
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: 'der', type: 'spki' });
}

export const verifySignature = (publicKey: KeyObject, message: Uint8Array, signatureBase64: string): boolean =>
  verify(null, message, publicKey, Buffer.from(signatureBase64, 'base64'));

/**
 * Password reset tokens: `<userId>.<requestId>.<base64url HMAC-SHA256(secret, userId.requestId)>`.
 * Nothing about the token is stored: the e-mail job can rebuild the same link from the
 * PasswordResetRequested event after a Redis loss, and the api verifies a link with the secret
 * alone. Expiry and single use are checked by the api against the log, not here.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Ids that end up in job ids, Message-IDs, file names and reset tokens: the pattern excludes every
 * separator those formats use ('.', ':', '@', '/'), so an id can never split a token or escape a
 * directory. The api makes them with randomUUID.
 */
export const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Unpadded base64url, the canonical spelling a token carries (core has no Buffer or btoa). */
export function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += BASE64URL_ALPHABET[(chunk >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** Compares two strings in time that depends only on their length, not on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export interface ResetLink {
  userId: string;
  requestId: string;
}

/** A shorter secret would make the MAC guessable; the api's APP_SECRET is at least 32 characters. */
const MIN_SECRET_LENGTH = 16;
/** 32 bytes of HMAC-SHA256 in unpadded base64url. */
const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Two ids of at most 64 characters, a 43-character signature and two dots. */
const MAX_TOKEN_LENGTH = 64 + 1 + 64 + 1 + 43;

/**
 * What a token is for. A reset token signs `userId.requestId`; other purposes sign
 * `<purpose>.userId.requestId` (ids hold no dots, so the two can never sign the same text): a
 * verification link can never be used as a reset link, nor the other way round.
 */
type TokenPurpose = 'reset' | 'email-verification';

function sign(secret: string, userId: string, requestId: string, purpose: TokenPurpose = 'reset'): string {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`The app secret must be at least ${MIN_SECRET_LENGTH} characters`);
  const message = purpose === 'reset' ? `${userId}.${requestId}` : `${purpose}.${userId}.${requestId}`;
  return base64url(hmac(sha256, utf8ToBytes(secret), utf8ToBytes(message)));
}

function createToken(secret: string, userId: string, requestId: string, purpose: TokenPurpose): string {
  if (!ID_PATTERN.test(userId) || !ID_PATTERN.test(requestId)) throw new Error('Link tokens need ids of letters, digits and dashes');
  return `${userId}.${requestId}.${sign(secret, userId, requestId, purpose)}`;
}

export function createResetToken(secret: string, userId: string, requestId: string): string {
  return createToken(secret, userId, requestId, 'reset');
}

/** The link's ids when the token is well-formed and signed with this secret; otherwise null. */
export function verifyResetToken(secret: string, token: string): ResetLink | null {
  return verifyToken(secret, token, 'reset');
}

/** The e-mail verification link's token (ADR 046): same shape as a reset token, another purpose. */
export function createEmailVerificationToken(secret: string, userId: string, requestId: string): string {
  return createToken(secret, userId, requestId, 'email-verification');
}

export function verifyEmailVerificationToken(secret: string, token: string): ResetLink | null {
  return verifyToken(secret, token, 'email-verification');
}

function verifyToken(secret: string, token: string, purpose: TokenPurpose): ResetLink | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, requestId, signature] = parts as [string, string, string];
  if (!ID_PATTERN.test(userId) || !ID_PATTERN.test(requestId) || !SIGNATURE_PATTERN.test(signature)) return null;
  // Comparing the canonical encodings (same length, checked above) refuses the non-canonical
  // base64url spellings that would decode to the same bytes, and takes the same time for any mismatch.
  return constantTimeEqual(sign(secret, userId, requestId, purpose), signature) ? { userId, requestId } : null;
}

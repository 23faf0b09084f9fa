/**
 * Password reset tokens: `<userId>.<requestId>.<base64url HMAC-SHA256(secret, userId.requestId)>`.
 * Nothing about the token is stored: the e-mail job can rebuild the same link from the
 * PasswordResetRequested event after a Redis loss, and the api verifies a link with the secret
 * alone. Expiry and single use are checked by the api against the log, not here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ID_PATTERN } from '../ids.js';

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

function sign(secret: string, userId: string, requestId: string): string {
  if (secret.length < MIN_SECRET_LENGTH) throw new Error(`The app secret must be at least ${MIN_SECRET_LENGTH} characters`);
  return createHmac('sha256', secret).update(`${userId}.${requestId}`).digest('base64url');
}

export function createResetToken(secret: string, userId: string, requestId: string): string {
  if (!ID_PATTERN.test(userId) || !ID_PATTERN.test(requestId)) throw new Error('Reset tokens need ids of letters, digits and dashes');
  return `${userId}.${requestId}.${sign(secret, userId, requestId)}`;
}

/** The link's ids when the token is well-formed and signed with this secret; otherwise null. */
export function verifyResetToken(secret: string, token: string): ResetLink | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [userId, requestId, signature] = parts as [string, string, string];
  if (!ID_PATTERN.test(userId) || !ID_PATTERN.test(requestId) || !SIGNATURE_PATTERN.test(signature)) return null;
  // Comparing the canonical encodings (same length, checked above) refuses the non-canonical
  // base64url spellings that would decode to the same bytes, and takes the same time for any mismatch.
  const expected = Buffer.from(sign(secret, userId, requestId), 'ascii');
  const given = Buffer.from(signature, 'ascii');
  return expected.length === given.length && timingSafeEqual(expected, given) ? { userId, requestId } : null;
}

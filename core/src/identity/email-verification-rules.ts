/**
 * The rules of proving an account's e-mail address (ADR 046), pure: what a verification request
 * records, when another may be asked for, and when a link or a password reset proves the address.
 * The handlers that read and append them are in email-verification.ts.
 */
import { AppError } from '../shared/errors.js';
import type { EmailVerificationRequested, EmailVerified } from './events.js';
import type { UserState } from './state.js';

/** How long a verification link stays valid. */
export const VERIFICATION_LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Verification mails one account can ask for in an hour (the sign-up's included). */
export const VERIFICATION_REQUESTS_PER_HOUR_MAX = 3;
const HOUR_MS = 60 * 60 * 1000;

/**
 * The typed refusal of an e-mail payee whose owner never proved the address: the caller may tell
 * it from an unknown recipient by its class, not by its message. The message says to pay the
 * username or the address instead.
 */
export class UnverifiedEmailRecipient extends AppError {
  readonly reason = 'recipientEmailUnverified' as const;
  constructor(field = 'to') {
    super('VALIDATION', 'errors:recipientEmailUnverified', { [field]: 'errors:recipientEmailUnverified' });
  }
}

export const isUnverifiedEmailRecipient = (error: unknown): error is UnverifiedEmailRecipient => error instanceof UnverifiedEmailRecipient;

export function emailVerificationRequested(
  userId: string,
  c: { requestId: string; now: Date; via: EmailVerificationRequested['data']['via'] },
): EmailVerificationRequested {
  return {
    type: 'EmailVerificationRequested',
    data: {
      userId,
      requestId: c.requestId,
      expiresAt: new Date(c.now.getTime() + VERIFICATION_LINK_TTL_MS).toISOString(),
      requestedAt: c.now.toISOString(),
      via: c.via,
    },
  };
}

/**
 * Another verification mail, asked for by the signed-in owner. Nothing once verified; refused
 * (429) past VERIFICATION_REQUESTS_PER_HOUR_MAX in an hour, so the call cannot flood an inbox.
 */
export function decideEmailVerificationResend(user: UserState, c: { requestId: string; now: Date }): EmailVerificationRequested[] {
  if (user.emailVerifiedAt !== undefined) return [];
  const since = c.now.getTime() - HOUR_MS;
  let lastHour = 0;
  for (const request of user.verificationRequests.values()) if (Date.parse(request.requestedAt) > since) lastHour += 1;
  if (lastHour >= VERIFICATION_REQUESTS_PER_HOUR_MAX) throw new AppError('RATE_LIMITED', 'errors:verificationResendLimit');
  return [emailVerificationRequested(user.userId, { requestId: c.requestId, now: c.now, via: 'resend' })];
}

/**
 * A verification link used: once, before it expires, for a request of this account. An account
 * verified already records nothing (the answer is the same: the address is verified).
 */
export function decideEmailVerification(user: UserState | undefined, c: { requestId: string; now: Date }): EmailVerified[] {
  const request = user?.verificationRequests.get(c.requestId);
  if (user && user.emailVerifiedAt !== undefined && request) return [];
  if (!user || !request || request.used || Date.parse(request.expiresAt) <= c.now.getTime()) {
    throw new AppError('VALIDATION', 'errors:invalidVerificationLink');
  }
  return [{ type: 'EmailVerified', data: { userId: user.userId, requestId: c.requestId, via: 'link', verifiedAt: c.now.toISOString() } }];
}

/** A reset link went to the same inbox: using it proves the address as well. */
export function verifiedByPasswordReset(user: UserState | undefined, c: { requestId: string; now: Date }): EmailVerified[] {
  if (!user || user.emailVerifiedAt !== undefined) return [];
  return [
    { type: 'EmailVerified', data: { userId: user.userId, requestId: c.requestId, via: 'passwordReset', verifiedAt: c.now.toISOString() } },
  ];
}

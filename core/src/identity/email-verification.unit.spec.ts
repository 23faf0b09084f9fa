// Proves the e-mail verification rules (ADR 046): a verification token never passes as a reset token nor the reverse; a link proves the address once, before it expires, for a request of the account; more mails are refused past three an hour; a reset link proves the address too.
import { describe, expect, it } from 'vitest';
import { refusal, refusalSummary } from '../../test/refusal.js';
import {
  decideEmailVerification,
  decideEmailVerificationResend,
  emailVerificationRequested,
  VERIFICATION_LINK_TTL_MS,
  verifiedByPasswordReset,
} from './email-verification.js';
import { createEmailVerificationToken, createResetToken, verifyEmailVerificationToken, verifyResetToken } from './reset-token.js';
import { fold, now, registered } from '../../test/identity-fixtures.js';

const secret = 'a-secret-of-more-than-thirty-two-chars';
const userId = '0b6f4e0c-7c1e-4d3a-9f7a-3f0e2d1c4b5a';
const requestId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const later = (ms: number) => new Date(now.getTime() + ms);

const requested = () => fold(registered(), [emailVerificationRequested('u1', { requestId: 'r1', now, via: 'registration' })]);

describe('verification tokens', () => {
  it('given a verification token, then it verifies as one and never as a reset token, and the reverse', () => {
    const verification = createEmailVerificationToken(secret, userId, requestId);
    expect(verifyEmailVerificationToken(secret, verification)).toEqual({ userId, requestId });
    expect(verifyResetToken(secret, verification)).toBeNull();
    expect(verifyEmailVerificationToken(secret, createResetToken(secret, userId, requestId))).toBeNull();
    expect(verifyEmailVerificationToken('another-secret-of-enough-length', verification)).toBeNull();
  });
});

describe('decideEmailVerification', () => {
  it('given a fresh request, when its link is used, then the address is verified and the link is spent', () => {
    const events = decideEmailVerification(requested(), { requestId: 'r1', now: later(1000) });
    expect(events).toEqual([
      { type: 'EmailVerified', data: { userId: 'u1', requestId: 'r1', via: 'link', verifiedAt: later(1000).toISOString() } },
    ]);
    const verified = fold(requested(), events);
    expect(verified.emailVerifiedAt).toBe(later(1000).toISOString());
    expect(verified.verificationRequests.get('r1')?.used).toBe(true);
    // Used again on a verified account: nothing more is recorded.
    expect(decideEmailVerification(verified, { requestId: 'r1', now: later(2000) })).toEqual([]);
  });

  it('given an expired link, an unknown request or no account, then it is refused', () => {
    for (const [state, id, at] of [
      [requested(), 'r1', later(VERIFICATION_LINK_TTL_MS)],
      [requested(), 'r2', later(1)],
      [undefined, 'r1', later(1)],
    ] as const) {
      expect(refusalSummary(refusal(() => decideEmailVerification(state, { requestId: id, now: at })))).toEqual({
        code: 'VALIDATION',
        messageKey: 'errors:invalidVerificationLink',
        fields: {},
      });
    }
  });

  it('given an account registered before verification existed, then it is unverified', () => {
    expect(registered().emailVerifiedAt).toBeUndefined();
  });
});

describe('decideEmailVerificationResend', () => {
  it('given the sign-up request and two more within the hour, then a fourth is refused with 429, and an hour later it is accepted', () => {
    let state = requested();
    for (const id of ['r2', 'r3']) state = fold(state, decideEmailVerificationResend(state, { requestId: id, now: later(60_000) }));
    expect(refusal(() => decideEmailVerificationResend(state, { requestId: 'r4', now: later(120_000) })).code).toBe('RATE_LIMITED');
    expect(decideEmailVerificationResend(state, { requestId: 'r4', now: later(3_600_001 + 60_000) })).toHaveLength(1);
  });

  it('given a verified account, then nothing is sent', () => {
    const verified = fold(requested(), decideEmailVerification(requested(), { requestId: 'r1', now }));
    expect(decideEmailVerificationResend(verified, { requestId: 'r2', now })).toEqual([]);
  });
});

describe('verifiedByPasswordReset', () => {
  it('given an unverified account, then the reset proves the address; a verified one records nothing', () => {
    const [event] = verifiedByPasswordReset(requested(), { requestId: 'p1', now });
    expect(event?.data.via).toBe('passwordReset');
    expect(verifiedByPasswordReset(fold(requested(), [event as never]), { requestId: 'p2', now })).toEqual([]);
  });
});

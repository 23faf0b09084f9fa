// Proves the dispatch rules derive the same job id and a valid payload from a request event, match completions to those ids, and refuse malformed requests.
import { describe, expect, it } from 'vitest';
import { recorded } from '../../test/recorded.js';
import { depositConfirmationRule } from '../deposits/rules.js';
import { emailVerificationEmailRule } from '../email-verification-email/rules.js';
import { jobsRequestedBy } from '../job/dispatch-rule.js';
import { passwordChangedEmailRule } from '../password-changed-email/rules.js';
import { passwordResetEmailRule } from '../password-reset-email/rules.js';
import { settlementRule } from '../settlement/rules.js';
import { twoFactorLockedEmailRule } from '../two-factor-locked-email/rules.js';
import { welcomeEmailRule } from '../welcome-email/rules.js';
import { dispatchRules } from './rules.js';

const userId = '0b6f4e0c-7c1e-4d3a-9f7a-3f0e2d1c4b5a';
const requestId = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';

describe('welcomeEmailRule', () => {
  it('given UserRegistered, when dispatched, then the job id is derived from the user id and the payload is minimal', () => {
    const event = recorded('UserRegistered', { userId, email: 'ada@example.com', firstName: 'Ada' });
    expect(welcomeEmailRule.jobId(event)).toBe(`welcome-email-${userId}`);
    expect(welcomeEmailRule.payload(event)).toEqual({ userId, language: 'en' });
  });

  it('given the same request twice, when dispatched, then both give the same job id (deterministic)', () => {
    const first = recorded('UserRegistered', { userId }, 1n);
    const again = recorded('UserRegistered', { userId }, 99n);
    expect(welcomeEmailRule.jobId(first)).toBe(welcomeEmailRule.jobId(again));
  });

  it('given WelcomeEmailSent, when matched, then it names the job of the same user', () => {
    expect(welcomeEmailRule.matchCompletion(recorded('WelcomeEmailSent', { userId, messageId: '<m@x>' }))).toBe(`welcome-email-${userId}`);
  });

  it('given a Spanish request in the metadata, when dispatched, then the payload asks for Spanish; an unknown language falls back to English', () => {
    expect(welcomeEmailRule.payload(recorded('UserRegistered', { userId }, 1n, { language: 'es' }))).toEqual({ userId, language: 'es' });
    expect(welcomeEmailRule.payload(recorded('UserRegistered', { userId }, 1n, { language: 'fr' }))).toEqual({ userId, language: 'en' });
  });

  it.each([
    ['no user id', {}],
    ['a numeric user id', { userId: 42 }],
    ['a user id with a colon', { userId: 'a:b' }],
    ['a user id with a dot', { userId: 'a.b' }],
  ])('given UserRegistered with %s, when dispatched, then it throws', (_label, data) => {
    expect(() => welcomeEmailRule.jobId(recorded('UserRegistered', data))).toThrow();
  });
});

describe('passwordResetEmailRule', () => {
  it('given PasswordResetRequested, when dispatched, then the job id is derived from the request id', () => {
    const event = recorded('PasswordResetRequested', { userId, requestId, expiresAt: '2026-01-01T01:00:00.000Z' });
    expect(passwordResetEmailRule.jobId(event)).toBe(`password-reset-email-${requestId}`);
    expect(passwordResetEmailRule.payload(event)).toEqual({ userId, requestId, language: 'en' });
  });

  it('given PasswordResetEmailSent, when matched, then it names the job of the same request', () => {
    expect(passwordResetEmailRule.matchCompletion(recorded('PasswordResetEmailSent', { userId, requestId }))).toBe(
      `password-reset-email-${requestId}`,
    );
  });

  it('given a request without a request id, when dispatched, then it throws', () => {
    expect(() => passwordResetEmailRule.payload(recorded('PasswordResetRequested', { userId }))).toThrow(
      /not a well-formed PasswordResetRequested/,
    );
  });
});

describe('jobsRequestedBy', () => {
  it('given an event no rule asks for, when read, then it requests nothing', () => {
    expect(jobsRequestedBy(recorded('UserSignedIn', { userId }), dispatchRules)).toEqual([]);
    expect(jobsRequestedBy(recorded('WelcomeEmailSent', { userId }), dispatchRules)).toEqual([]);
  });

  it('given a request, when read, then it yields one job with queue, name, id, data and position', () => {
    expect(jobsRequestedBy(recorded('UserRegistered', { userId }, 7n), dispatchRules)).toEqual([
      {
        queue: 'welcome-email',
        name: 'send-welcome-email',
        jobId: `welcome-email-${userId}`,
        data: { userId, language: 'en' },
        position: 7n,
      },
    ]);
  });
});

const payerId = '5c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e';
const transferId = '7e6d5c4b-3a29-4180-9f0e-1d2c3b4a5968';
const reservedAt = '2026-03-01T10:00:00.000Z';
const reserved = (data: Record<string, unknown> = {}, position = 1n) =>
  recorded(
    'TransferReserved',
    { walletId: payerId, transferId, fromAddress: 'a', toAddress: 'b', amountMlx: '5', feeMlx: '1000', reservedAt, ...data },
    position,
  );

describe('settlementRule', () => {
  it('given TransferReserved, when dispatched, then one settlement job per transfer carries the payer, the transfer and the reservation time', () => {
    expect(jobsRequestedBy(reserved({}, 9n), dispatchRules)).toEqual([
      {
        queue: 'settlement',
        name: 'settle-transfer',
        jobId: `settle-${transferId}`,
        data: { payerWalletId: payerId, transferId, reservedAt },
        position: 9n,
      },
    ]);
  });

  it.each(['TransferPosted', 'TransferVoided'])(
    'given %s of the same transfer, when matched, then it closes the settlement job',
    (type) => {
      expect(settlementRule.completions).toContain(type);
      expect(settlementRule.matchCompletion(recorded(type, { walletId: payerId, transferId }))).toBe(`settle-${transferId}`);
    },
  );

  it('given a reservation settled in its own atomic append (settledAtOnce), when dispatched, then no settlement job is asked for', () => {
    expect(jobsRequestedBy(reserved({ toWalletId: 'payee', settledAtOnce: true }, 9n), dispatchRules)).toEqual([]);
  });

  it('given an internal reservation recorded before atomic settlement (no flag), when dispatched, then it still gets its settlement job', () => {
    expect(jobsRequestedBy(reserved({ toWalletId: 'payee' }, 9n), dispatchRules).map((job) => job.jobId)).toEqual([`settle-${transferId}`]);
  });

  it('given TransferCredited (the payee side), when read, then it neither requests nor completes a settlement', () => {
    expect(settlementRule.completions).not.toContain('TransferCredited');
    // It asks for the payee's money-received notice only (notice-email/rules.unit.spec.ts).
    expect(jobsRequestedBy(recorded('TransferCredited', { walletId: 'x', transferId }), dispatchRules).map((job) => job.queue)).toEqual([
      'notice-email',
    ]);
  });

  it.each([
    ['no transfer id', { transferId: undefined }],
    ['a transfer id with a colon', { transferId: 'a:b' }],
    ['a payer id with a slash', { walletId: 'a/b' }],
    ['no reservation time', { reservedAt: undefined }],
  ])('given TransferReserved with %s, when dispatched, then it throws', (_label, data) => {
    expect(() => settlementRule.jobId(reserved(data))).toThrow();
  });
});

describe('depositConfirmationRule', () => {
  const depositId = '2Jt5Qm8pXr9K3vWcYb7N1dFgHs6LaZeTu4Po:0';
  const received = (data: Record<string, unknown> = {}) =>
    recorded('DepositReceived', {
      walletId: payerId,
      depositId,
      networkTransactionHash: 'h',
      fromAddress: 'a',
      toAddress: 'b',
      amountMlx: '5',
      receivedAt: reservedAt,
      ...data,
    });

  it('given DepositReceived, when dispatched, then the job id names wallet and deposit without a colon', () => {
    const [job] = jobsRequestedBy(received(), dispatchRules);
    expect(job).toMatchObject({ queue: 'deposit-confirmation', name: 'confirm-deposit', data: { walletId: payerId, depositId } });
    expect(job?.jobId).toBe(`deposit-${payerId}-2Jt5Qm8pXr9K3vWcYb7N1dFgHs6LaZeTu4Po.0`);
    expect(job?.jobId).not.toContain(':');
  });

  it.each(['DepositConfirmed', 'DepositRejected'])('given %s of the same deposit, when matched, then it closes the job', (type) => {
    expect(depositConfirmationRule.matchCompletion(recorded(type, { walletId: payerId, depositId }))).toBe(
      depositConfirmationRule.jobId(received()),
    );
  });

  it.each([
    ['no deposit id', { depositId: undefined }],
    ['a deposit id with a dot', { depositId: 'a.b' }],
    ['no wallet id', { walletId: undefined }],
  ])('given DepositReceived with %s, when dispatched, then it throws', (_label, data) => {
    expect(() => depositConfirmationRule.payload(received(data))).toThrow();
  });
});

describe('passwordChangedEmailRule', () => {
  const changed = (data: Record<string, unknown>) =>
    recorded('PasswordChanged', { userId, passwordHash: '$argon2id$x', changedAt: '2026-11-24T10:00:00.000Z', ...data }, 5n, {
      language: 'es',
    });

  it('given a profile change with a change id, when dispatched, then one job named by the change asks for the notice in the language', () => {
    const event = changed({ via: 'profile', changeId: requestId });
    expect(jobsRequestedBy(event, dispatchRules).map((job) => job.jobId)).toEqual([`password-changed-email-${requestId}`]);
    expect(passwordChangedEmailRule.payload(event)).toEqual({ userId, changeId: requestId, language: 'es' });
    expect(
      passwordChangedEmailRule.matchCompletion(
        recorded('PasswordChangedEmailSent', { userId, changeId: requestId, messageId: '<m@x>', sentAt: '2026-11-24T10:00:01.000Z' }),
      ),
    ).toBe(`password-changed-email-${requestId}`);
  });

  it('given a change by reset link, or a profile change without a change id, when dispatched, then no notice is asked for', () => {
    expect(jobsRequestedBy(changed({ via: 'reset', requestId }), dispatchRules)).toEqual([]);
    expect(jobsRequestedBy(changed({ via: 'profile' }), dispatchRules)).toEqual([]);
  });
});

describe('twoFactorLockedEmailRule', () => {
  const lockId = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';
  const locked = (data: Record<string, unknown> = {}) =>
    recorded('TwoFactorLocked', { userId, lockId, lockedAt: '2026-11-24T10:00:00.000Z', until: '2026-11-24T11:00:00.000Z', ...data });

  it('given a lock, when dispatched, then one job named by the lock asks for the notice, and its completion matches it', () => {
    expect(jobsRequestedBy(locked(), dispatchRules).map((job) => job.jobId)).toEqual([`two-factor-locked-email-${lockId}`]);
    expect(twoFactorLockedEmailRule.payload(locked())).toEqual({ userId, lockId });
    expect(
      twoFactorLockedEmailRule.matchCompletion(
        recorded('TwoFactorLockedEmailSent', { userId, lockId, messageId: '<m@x>', sentAt: '2026-11-24T10:00:01.000Z' }),
      ),
    ).toBe(`two-factor-locked-email-${lockId}`);
  });

  it('given a malformed lock (no lock id), when dispatched, then it is refused as malformed', () => {
    expect(() => jobsRequestedBy(locked({ lockId: undefined }), dispatchRules)).toThrow(/not a well-formed TwoFactorLocked/);
  });
});

describe('emailVerificationEmailRule', () => {
  const request = (via: 'registration' | 'resend') =>
    recorded(
      'EmailVerificationRequested',
      { userId, requestId, expiresAt: '2026-11-25T10:00:00.000Z', requestedAt: '2026-11-24T10:00:00.000Z', via },
      1n,
      { language: 'es' },
    );

  it('given a resent request, then it asks for its own mail, closed by its completion; the sign-up request rides in the welcome mail', () => {
    expect(jobsRequestedBy(request('resend'), dispatchRules)).toEqual([
      {
        queue: 'email-verification-email',
        name: 'send-email-verification-email',
        jobId: `email-verification-email-${requestId}`,
        data: { userId, requestId, language: 'es' },
        position: 1n,
      },
    ]);
    expect(
      emailVerificationEmailRule.matchCompletion(
        recorded('EmailVerificationEmailSent', { userId, requestId, messageId: '<m@x>', sentAt: '2026-11-24T10:00:01.000Z' }),
      ),
    ).toBe(`email-verification-email-${requestId}`);
    expect(jobsRequestedBy(request('registration'), dispatchRules)).toEqual([]);
  });
});

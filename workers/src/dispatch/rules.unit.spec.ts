// Proves the dispatch rules derive the same job id and a valid payload from a request event, match completions to those ids, and refuse malformed requests.
import { describe, expect, it } from 'vitest';
import { recorded } from '../testing/recorded.js';
import { dispatchRules, jobsRequestedBy, passwordResetEmailRule, welcomeEmailRule } from './rules.js';

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
    expect(() => passwordResetEmailRule.payload(recorded('PasswordResetRequested', { userId }))).toThrow(/requestId/);
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

// Proves the identity decisions: unique-key claims (taken, own, orphaned), registration and
// the one-time, expiring password-reset link, and at most 3 reset e-mails per account per hour.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { registerInput } from './contracts.js';
import {
  decideClaim,
  decidePasswordReset,
  decidePasswordResetRequest,
  decideRegistration,
  ORPHANED_CLAIM_AFTER_MS,
  RESET_REQUESTS_PER_HOUR_MAX,
} from './decider.js';
import { evolveUser, type UserState } from './state.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);

const input = registerInput.parse({
  userName: 'ada_l',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: ' Ada@Example.COM ',
  phone: '+1 (555) 010-2030',
  password: 'correct horse battery',
});

function registered(): UserState {
  const [event] = decideRegistration(undefined, input, { userId: 'u1', passwordHash: 'hash', now });
  return evolveUser(undefined, event!)!;
}

describe('decideClaim', () => {
  it('given a free key, when claimed, then it is claimed for the user', () => {
    const events = decideClaim({}, { kind: 'email', value: 'a@x.io', userId: 'u1', now, holderRegistered: false });
    expect(events).toEqual([
      { type: 'IdentityKeyClaimed', data: { kind: 'email', value: 'a@x.io', userId: 'u1', claimedAt: now.toISOString() } },
    ]);
  });

  it('given a key held by a registered user, when another claims it, then CONFLICT names the field', () => {
    const held = { holderUserId: 'u1', claimedAt: now.toISOString() };
    const attempt = () =>
      decideClaim(held, {
        kind: 'username',
        value: 'ada_l',
        userId: 'u2',
        now: later(ORPHANED_CLAIM_AFTER_MS * 10),
        holderRegistered: true,
      });
    expect(attempt).toThrow(AppError);
    try {
      attempt();
    } catch (error) {
      expect((error as AppError).code).toBe('CONFLICT');
      expect((error as AppError).fields).toEqual({ userName: 'errors:usernameTaken' });
    }
  });

  it('given a fresh claim by an unfinished registration, when another claims it, then it is still taken', () => {
    const held = { holderUserId: 'u1', claimedAt: now.toISOString() };
    expect(() =>
      decideClaim(held, { kind: 'phone', value: '+15550102030', userId: 'u2', now: later(1000), holderRegistered: false }),
    ).toThrow(AppError);
  });

  it('given an orphaned claim, when another claims it, then it is released and reclaimed', () => {
    const held = { holderUserId: 'u1', claimedAt: now.toISOString() };
    const events = decideClaim(held, {
      kind: 'phone',
      value: '+15550102030',
      userId: 'u2',
      now: later(ORPHANED_CLAIM_AFTER_MS),
      holderRegistered: false,
    });
    expect(events.map((e) => e.type)).toEqual(['IdentityKeyReleased', 'IdentityKeyClaimed']);
  });

  it('given a key the same user holds, when claimed again, then nothing happens', () => {
    expect(
      decideClaim(
        { holderUserId: 'u1', claimedAt: now.toISOString() },
        { kind: 'email', value: 'a@x.io', userId: 'u1', now, holderRegistered: false },
      ),
    ).toEqual([]);
  });
});

describe('decideRegistration', () => {
  it('normalizes e-mail and phone and never records the password', () => {
    const [event] = decideRegistration(undefined, input, { userId: 'u1', passwordHash: 'hash', now });
    expect(event?.data).toMatchObject({ email: 'ada@example.com', phone: '+15550102030', passwordHash: 'hash' });
    expect(JSON.stringify(event)).not.toContain('correct horse');
  });

  it('refuses to register over an existing user', () => {
    expect(() => decideRegistration(registered(), input, { userId: 'u1', passwordHash: 'h', now })).toThrow(AppError);
  });
});

describe('password reset', () => {
  const withRequest = () => {
    const user = registered();
    const [requested] = decidePasswordResetRequest(user, { requestId: 'r1', now });
    return evolveUser(user, requested!)!;
  };

  it('given a fresh request, when confirmed, then the password changes and the link is spent', () => {
    const user = withRequest();
    const [changed] = decidePasswordReset(user, { requestId: 'r1', passwordHash: 'new', now: later(60_000) });
    expect(changed?.data).toMatchObject({ passwordHash: 'new', via: 'reset', requestId: 'r1' });
    const after = evolveUser(user, changed!)!;
    expect(() => decidePasswordReset(after, { requestId: 'r1', passwordHash: 'again', now: later(61_000) })).toThrow(
      'errors:invalidResetLink',
    );
  });

  it('refuses an expired link, an unknown request and an unknown user', () => {
    const user = withRequest();
    expect(() => decidePasswordReset(user, { requestId: 'r1', passwordHash: 'x', now: later(2 * 60 * 60 * 1000) })).toThrow(
      'errors:invalidResetLink',
    );
    expect(() => decidePasswordReset(user, { requestId: 'nope', passwordHash: 'x', now })).toThrow('errors:invalidResetLink');
    expect(() => decidePasswordReset(undefined, { requestId: 'r1', passwordHash: 'x', now })).toThrow('errors:invalidResetLink');
  });

  it('given 3 requests in the last hour, when a 4th comes, then nothing is recorded; an hour after the first, one more is', () => {
    let user = registered();
    for (let i = 0; i < RESET_REQUESTS_PER_HOUR_MAX; i++) {
      const events = decidePasswordResetRequest(user, { requestId: `r${i}`, now: later(i * 60_000) });
      expect(events).toHaveLength(1);
      user = evolveUser(user, events[0]!)!;
    }
    expect(RESET_REQUESTS_PER_HOUR_MAX).toBe(3);
    expect(decidePasswordResetRequest(user, { requestId: 'r3', now: later(59 * 60_000) })).toEqual([]);
    expect(decidePasswordResetRequest(user, { requestId: 'r4', now: later(60 * 60_000 + 1) })).toHaveLength(1);
  });
});

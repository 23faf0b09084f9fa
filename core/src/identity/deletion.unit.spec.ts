// Proves the deletion decision (ADR 042): the password always, a fresh code or an unused recovery
// code when two-factor is on, and what it records; a deleted account folds to a state that the
// handlers treat as gone, and a deleted holder frees its e-mail and phone keys but not its username.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { accountDeleteInput, registerInput } from './contracts.js';
import { decideClaim, decideRegistration } from './decider.js';
import { decideAccountDeletion, type DeletionProof } from './deletion.js';
import { toUserEvent } from './event-schemas.js';
import type { UserEvent } from './events.js';
import { evolveUser, type UserState } from './state.js';
import { decideTwoFactorConfirm, decideTwoFactorStart } from './two-factor.js';

const now = new Date('2026-11-24T10:00:00.000Z');
const fold = (state: UserState, events: UserEvent[]) => events.reduce<UserState>((s, e) => evolveUser(s, e) as UserState, state);

function registered(): UserState {
  const input = registerInput.parse({
    userName: 'Ada_L',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+15550102030',
    password: 'correct horse battery',
  });
  const [event] = decideRegistration(undefined, input, { userId: 'u1', passwordHash: 'hash', now });
  return evolveUser(undefined, event as UserEvent) as UserState;
}

function withTwoFactor(): UserState {
  const started = fold(registered(), decideTwoFactorStart(registered(), { enrollmentId: 'e1', secret: 'SECRET', now }));
  return fold(started, decideTwoFactorConfirm(started, { enrollmentId: 'e1', step: 100, recoveryCodeHashes: ['h0', 'h1'], now }));
}

const proof = (p: Partial<DeletionProof>): DeletionProof => ({ passwordValid: true, secondFactorGiven: false, now, ...p });
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, messageKey: error.messageKey, fields: error.fields };
    throw error;
  }
  throw new Error('not refused');
};

describe('deciding an account deletion', () => {
  it('records UserAccountDeleted with the username (kept reserved) and nothing personal, given the password', () => {
    const events = decideAccountDeletion(registered(), proof({}));
    expect(events).toEqual([{ type: 'UserAccountDeleted', data: { userId: 'u1', username: 'Ada_L', deletedAt: now.toISOString() } }]);
    expect(toUserEvent(events[0] as UserEvent)).toEqual(events[0]);
    const folded = fold(registered(), events);
    expect(folded.deletedAt).toBe(now.toISOString());
  });

  it('refuses a wrong password, naming the password field', () => {
    expect(refusal(() => decideAccountDeletion(registered(), proof({ passwordValid: false })))).toEqual({
      code: 'VALIDATION',
      messageKey: 'errors:wrongCurrentPassword',
      fields: { password: 'errors:wrongCurrentPassword' },
    });
  });

  it('with two-factor on: asks for a code, refuses a wrong or reused one, and spends a fresh code or a recovery code', () => {
    const user = withTwoFactor();
    expect(refusal(() => decideAccountDeletion(user, proof({})))).toMatchObject({ messageKey: 'errors:twoFactorCodeRequired' });
    expect(refusal(() => decideAccountDeletion(user, proof({ secondFactorGiven: true })))).toMatchObject({
      messageKey: 'errors:twoFactorCodeInvalid',
    });
    expect(refusal(() => decideAccountDeletion(user, proof({ secondFactorGiven: true, step: 100 })))).toMatchObject({
      messageKey: 'errors:twoFactorCodeInvalid',
    });
    expect(decideAccountDeletion(user, proof({ secondFactorGiven: true, step: 101 })).map((e) => e.type)).toEqual([
      'TwoFactorCodeUsed',
      'UserAccountDeleted',
    ]);
    expect(decideAccountDeletion(user, proof({ secondFactorGiven: true, recoveryCodeHash: 'h1' })).map((e) => e.type)).toEqual([
      'RecoveryCodeUsed',
      'UserAccountDeleted',
    ]);
    expect(refusal(() => decideAccountDeletion(user, proof({ secondFactorGiven: true, recoveryCodeHash: 'nope' })))).toMatchObject({
      messageKey: 'errors:recoveryCodeInvalid',
    });
    // A wrong password is refused before the code is looked at.
    expect(refusal(() => decideAccountDeletion(user, proof({ passwordValid: false, secondFactorGiven: true, step: 101 })))).toMatchObject({
      messageKey: 'errors:wrongCurrentPassword',
    });
  });

  it('a deleted holder frees its e-mail and phone for a new account at once, never its username', () => {
    const held = { holderUserId: 'u1', claimedAt: now.toISOString() };
    const claim = (kind: 'email' | 'phone' | 'username') =>
      decideClaim(held, { kind, value: 'v', userId: 'u2', now, holderRegistered: true, holderDeleted: true }).map((e) => e.type);
    expect(claim('email')).toEqual(['IdentityKeyReleased', 'IdentityKeyClaimed']);
    expect(claim('phone')).toEqual(['IdentityKeyReleased', 'IdentityKeyClaimed']);
    expect(refusal(() => claim('username'))).toMatchObject({ code: 'CONFLICT', messageKey: 'errors:usernameTaken' });
    expect(refusal(() => decideClaim(held, { kind: 'email', value: 'v', userId: 'u2', now, holderRegistered: true }))).toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('the input: a password is required and bounded, codes are optional', () => {
    expect(accountDeleteInput.safeParse({}).error?.issues[0]?.message).toBe('errors:deletePasswordRequired');
    expect(accountDeleteInput.safeParse({ password: 'x', code: '12 34 56' }).data).toEqual({ password: 'x', code: '123456' });
    expect(accountDeleteInput.safeParse({ password: 'x', extra: 1 }).success).toBe(false);
    expect(accountDeleteInput.safeParse({ password: 'x'.repeat(1025) }).success).toBe(false);
  });
});

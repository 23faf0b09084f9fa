// Proves the deletion decision (ADR 042): the password always, a fresh code or an unused recovery
// code when two-factor is on, and what it records; a deleted account folds to a state that the
// handlers treat as gone, and a deleted holder frees its e-mail and phone keys but not its username.
import { describe, expect, it } from 'vitest';
import { refusal, refusalSummary } from '../../test/refusal.js';
import { fold, now, registered, withTwoFactor } from '../../test/identity-fixtures.js';
import { accountDeleteInput } from './contracts.js';
import { decideClaim } from './decider.js';
import { decideAccountDeletion, type DeletionProof } from './deletion.js';
import { toUserEvent } from './event-schemas.js';
import type { UserEvent } from './events.js';

const proof = (p: Partial<DeletionProof>): DeletionProof => ({ passwordValid: true, secondFactorGiven: false, now, ...p });
const refused = (run: () => unknown) => refusalSummary(refusal(run));

describe('deciding an account deletion', () => {
  it('records UserAccountDeleted with the username (kept reserved) and nothing personal, given the password', () => {
    const events = decideAccountDeletion(registered(), proof({}));
    expect(events).toEqual([{ type: 'UserAccountDeleted', data: { userId: 'u1', username: 'ada_l', deletedAt: now.toISOString() } }]);
    expect(toUserEvent(events[0] as UserEvent)).toEqual(events[0]);
    const folded = fold(registered(), events);
    expect(folded.deletedAt).toBe(now.toISOString());
  });

  it('refuses a wrong password, naming the password field', () => {
    expect(refused(() => decideAccountDeletion(registered(), proof({ passwordValid: false })))).toEqual({
      code: 'VALIDATION',
      messageKey: 'errors:wrongCurrentPassword',
      fields: { password: 'errors:wrongCurrentPassword' },
    });
  });

  it('with two-factor on: asks for a code, refuses a wrong or reused one, and spends a fresh code or a recovery code', () => {
    const user = withTwoFactor();
    expect(refused(() => decideAccountDeletion(user, proof({})))).toMatchObject({ messageKey: 'errors:twoFactorCodeRequired' });
    expect(refused(() => decideAccountDeletion(user, proof({ secondFactorGiven: true })))).toMatchObject({
      messageKey: 'errors:twoFactorCodeInvalid',
    });
    expect(refused(() => decideAccountDeletion(user, proof({ secondFactorGiven: true, step: 100 })))).toMatchObject({
      messageKey: 'errors:twoFactorCodeInvalid',
    });
    expect(decideAccountDeletion(user, proof({ secondFactorGiven: true, step: 101 })).map((e) => e.type)).toEqual([
      'TwoFactorCodeUsed',
      'UserAccountDeleted',
    ]);
    expect(decideAccountDeletion(user, proof({ secondFactorGiven: true, recovery: { index: 1 } })).map((e) => e.type)).toEqual([
      'RecoveryCodeUsed',
      'UserAccountDeleted',
    ]);
    expect(refused(() => decideAccountDeletion(user, proof({ secondFactorGiven: true, recovery: { index: undefined } })))).toMatchObject({
      messageKey: 'errors:recoveryCodeInvalid',
    });
    // A wrong password is refused before the code is looked at.
    expect(refused(() => decideAccountDeletion(user, proof({ passwordValid: false, secondFactorGiven: true, step: 101 })))).toMatchObject({
      messageKey: 'errors:wrongCurrentPassword',
    });
  });

  it('a deleted holder frees its e-mail and phone for a new account at once, never its username', () => {
    const held = { holderUserId: 'u1', claimedAt: now.toISOString() };
    const claim = (kind: 'email' | 'phone' | 'username') =>
      decideClaim(held, { kind, value: 'v', userId: 'u2', now, holderRegistered: true, holderDeleted: true }).map((e) => e.type);
    expect(claim('email')).toEqual(['IdentityKeyReleased', 'IdentityKeyClaimed']);
    expect(claim('phone')).toEqual(['IdentityKeyReleased', 'IdentityKeyClaimed']);
    expect(refused(() => claim('username'))).toMatchObject({ code: 'CONFLICT', messageKey: 'errors:usernameTaken' });
    expect(refused(() => decideClaim(held, { kind: 'email', value: 'v', userId: 'u2', now, holderRegistered: true }))).toMatchObject({
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

// Proves the two-factor decisions: an enrollment turns on only with a valid code for its own
// secret, a code's step is spent once (never a step at or before the last one), a recovery code
// works once, turning off needs the password and a fresh code, and the events fold and read back.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { toUserEvent } from './event-schemas.js';
import type { UserEvent } from './events.js';
import { decideSecondFactor, decideTwoFactorConfirm, decideTwoFactorDisable, decideTwoFactorStart } from './two-factor.js';
import { twoFactorLoginInput, twoFactorConfirmInput } from './contracts.js';
import { fold, now, recoveryCodes, registered, withTwoFactor } from '../../test/identity-fixtures.js';

const hashes = recoveryCodes;
const enabled = withTwoFactor;

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? error.messageKey : String(error);
  }
  return 'no error';
};

describe('two-factor enrollment', () => {
  it('given a started enrollment, when no valid code confirms it, then two-factor stays off', () => {
    const started = fold(registered(), decideTwoFactorStart(registered(), { enrollmentId: 'e1', secret: 'SECRET', now }));
    expect(started.twoFactor.pending).toEqual({ enrollmentId: 'e1', secret: 'SECRET' });
    expect(started.twoFactor.enabled).toBeUndefined();
    expect(codeOf(() => decideTwoFactorConfirm(started, { enrollmentId: 'e1', step: undefined, recoveryCodes: hashes, now }))).toBe(
      'errors:twoFactorCodeInvalid',
    );
    expect(codeOf(() => decideTwoFactorConfirm(started, { enrollmentId: 'other', step: 5, recoveryCodes: hashes, now }))).toBe(
      'errors:twoFactorNoEnrollment',
    );
  });

  it('given a valid code, then it turns on with the pending secret and records the step', () => {
    const state = enabled(100);
    expect(state.twoFactor.enabled?.secret).toBe('SECRET');
    expect(state.twoFactor.enabled?.recoveryCodes).toEqual(hashes.map((c) => ({ kind: 'argon2id', ...c })));
    expect(state.twoFactor.lastUsedStep).toBe(100);
    expect(state.twoFactor.pending).toBeUndefined();
    expect(codeOf(() => decideTwoFactorStart(state, { enrollmentId: 'e2', secret: 'X', now }))).toBe('errors:twoFactorAlreadyOn');
  });
});

describe('second factor at sign-in', () => {
  it('given the step just used, when the same or an older step comes again, then it is refused', () => {
    const state = enabled(100);
    expect(codeOf(() => decideSecondFactor(state, { step: 100, now }))).toBe('errors:twoFactorCodeInvalid');
    expect(codeOf(() => decideSecondFactor(state, { step: 99, now }))).toBe('errors:twoFactorCodeInvalid');
    const used = decideSecondFactor(state, { step: 101, now });
    expect(used).toEqual([{ type: 'TwoFactorCodeUsed', data: { userId: 'u1', step: 101, usedAt: now.toISOString() } }]);
    expect(codeOf(() => decideSecondFactor(fold(state, used), { step: 101, now }))).toBe('errors:twoFactorCodeInvalid');
  });

  it('given a recovery code, then it works once and an unknown one never', () => {
    const state = enabled();
    const used = decideSecondFactor(state, { recovery: { index: 3 }, now });
    expect(used).toEqual([{ type: 'RecoveryCodeUsed', data: { userId: 'u1', index: 3, usedAt: now.toISOString() } }]);
    expect(codeOf(() => decideSecondFactor(fold(state, used), { recovery: { index: 3 }, now }))).toBe('errors:recoveryCodeInvalid');
    expect(codeOf(() => decideSecondFactor(state, { recovery: { index: undefined }, now }))).toBe('errors:recoveryCodeInvalid');
  });

  it('given two-factor off, then no second factor is accepted', () => {
    expect(codeOf(() => decideSecondFactor(registered(), { step: 5, now }))).toBe('errors:twoFactorNotOn');
  });
});

describe('turning two-factor off', () => {
  it('needs the password and a fresh code, and keeps the last step so the code cannot be replayed', () => {
    const state = enabled(100);
    expect(codeOf(() => decideTwoFactorDisable(state, { passwordValid: false, step: 101, now }))).toBe('errors:wrongCurrentPassword');
    expect(codeOf(() => decideTwoFactorDisable(state, { passwordValid: true, step: undefined, now }))).toBe('errors:twoFactorCodeInvalid');
    const off = fold(state, decideTwoFactorDisable(state, { passwordValid: true, step: 101, now }));
    expect(off.twoFactor.enabled).toBeUndefined();
    expect(off.twoFactor.lastUsedStep).toBe(101);
  });
});

describe('two-factor events and inputs', () => {
  it('read back through the event schemas', () => {
    const state = enabled(100);
    const events: UserEvent[] = [
      ...decideTwoFactorStart(registered(), { enrollmentId: 'e1', secret: 'SECRET', now }),
      ...decideTwoFactorConfirm(fold(registered(), decideTwoFactorStart(registered(), { enrollmentId: 'e1', secret: 'S', now })), {
        enrollmentId: 'e1',
        step: 100,
        recoveryCodes: hashes,
        now,
      }),
      ...decideSecondFactor(state, { recovery: { index: 0 }, now }),
      ...decideTwoFactorDisable(state, { passwordValid: true, step: 101, now }),
    ];
    for (const event of events) expect(toUserEvent(event)).toEqual(event);
    expect(toUserEvent({ type: 'RecoveryCodeUsed', data: { userId: 'u1', index: -1, usedAt: 'x' } })).toBeUndefined();
  });

  it('take a six-digit code or a recovery code, never both or neither', () => {
    expect(twoFactorLoginInput.parse({ challenge: 'c', code: '123 456' })).toEqual({ challenge: 'c', code: '123456' });
    expect(twoFactorLoginInput.safeParse({ challenge: 'c' }).success).toBe(false);
    expect(twoFactorLoginInput.safeParse({ challenge: 'c', code: '123456', recovery_code: 'abc' }).success).toBe(false);
    expect(twoFactorLoginInput.safeParse({ challenge: 'c', code: '12345a' }).success).toBe(false);
    expect(twoFactorConfirmInput.safeParse({ enrollment_id: 'not-a-uuid', code: '123456' }).success).toBe(false);
  });
});

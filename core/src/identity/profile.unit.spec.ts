// Proves the profile edit rules: only the account itself, exactly one field per call, names
// trimmed and bounded, the phone normalized, a password change only with the current password,
// and that the events fold into the state the next decision sees.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { registerInput, userUpdateInput } from './contracts.js';
import { assertOwnAccount, decideNameChange, decidePhoneChange, decideProfilePasswordChange, decideRegistration } from './decider.js';
import { toUserEvent } from './event-schemas.js';
import { evolveUser, type UserState } from './state.js';

const now = new Date('2026-11-24T10:00:00.000Z');

function registered(): UserState {
  const input = registerInput.parse({
    userName: 'ada_l',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '+15550102030',
    password: 'correct horse battery',
  });
  const [event] = decideRegistration(undefined, input, { userId: 'u1', passwordHash: 'old-hash', now });
  return evolveUser(undefined, event!)!;
}

const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  (result.error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);

describe('userUpdateInput', () => {
  it('accepts exactly one field, trimming names and normalizing the phone', () => {
    expect(userUpdateInput.parse({ first_name: '  Grace ' })).toEqual({ first_name: 'Grace' });
    expect(userUpdateInput.parse({ last_name: 'Hopper' })).toEqual({ last_name: 'Hopper' });
    expect(userUpdateInput.parse({ phone_number: '+1 (555) 010-9999' })).toEqual({ phone_number: '+15550109999' });
    expect(userUpdateInput.parse({ password: 'a new long one', current_password: 'x' })).toEqual({
      password: 'a new long one',
      current_password: 'x',
    });
  });

  it('refuses no field, two fields and unknown fields', () => {
    expect(messages(userUpdateInput.safeParse({}))).toEqual([':errors:oneProfileField']);
    expect(messages(userUpdateInput.safeParse({ first_name: 'A', last_name: 'B' }))).toEqual(['last_name:errors:oneProfileField']);
    expect(userUpdateInput.safeParse({ email: 'x@y.io' }).success).toBe(false);
  });

  it('needs the current password with a new one, and only then', () => {
    expect(messages(userUpdateInput.safeParse({ password: 'a new long one' }))).toEqual([
      'current_password:errors:currentPasswordRequired',
    ]);
    expect(messages(userUpdateInput.safeParse({ current_password: 'x' }))).toEqual(['password:errors:allFieldsRequired']);
    expect(messages(userUpdateInput.safeParse({ first_name: 'A', current_password: 'x' }))).toEqual([
      'current_password:errors:oneProfileField',
    ]);
  });

  it('bounds names, checks the phone format and the new password length', () => {
    expect(messages(userUpdateInput.safeParse({ first_name: 'x'.repeat(101) }))).toEqual(['first_name:errors:nameTooLong']);
    expect(messages(userUpdateInput.safeParse({ last_name: '   ' }))).toEqual(['last_name:errors:allFieldsRequired']);
    expect(messages(userUpdateInput.safeParse({ phone_number: '12ab' }))).toEqual(['phone_number:errors:invalidPhone']);
    expect(messages(userUpdateInput.safeParse({ password: 'short', current_password: 'x' }))).toEqual(['password:errors:passwordLength']);
  });
});

describe('profile decisions', () => {
  it('given another account, when editing, then it is forbidden; an unknown own id is not found', () => {
    expect(() => assertOwnAccount(registered(), 'u2', 'u1')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => assertOwnAccount(undefined, 'u1', 'u1')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(assertOwnAccount(registered(), 'u1', 'u1').userId).toBe('u1');
  });

  it('given a new first name, when decided, then both name parts are recorded and folded', () => {
    const user = registered();
    const events = decideNameChange(user, { firstName: 'Grace', now });
    expect(events).toEqual([
      { type: 'UserNameChanged', data: { userId: 'u1', firstName: 'Grace', lastName: 'Lovelace', changedAt: now.toISOString() } },
    ]);
    const after = evolveUser(user, events[0]!)!;
    expect([after.firstName, after.lastName]).toEqual(['Grace', 'Lovelace']);
    expect(toUserEvent(events[0]!)).toEqual(events[0]);
  });

  it('given the same name or phone, when decided, then nothing is recorded', () => {
    expect(decideNameChange(registered(), { lastName: 'Lovelace', now })).toEqual([]);
    expect(decidePhoneChange(registered(), { phone: '+15550102030', now })).toEqual([]);
  });

  it('given a new phone, when decided, then the change names the previous number and folds', () => {
    const user = registered();
    const events = decidePhoneChange(user, { phone: '+15550109999', now });
    expect(events[0]?.data).toEqual({ userId: 'u1', phone: '+15550109999', previousPhone: '+15550102030', changedAt: now.toISOString() });
    expect(evolveUser(user, events[0]!)?.phone).toBe('+15550109999');
    expect(toUserEvent(events[0]!)).toEqual(events[0]);
  });

  it('given a wrong current password, when changing it, then it is refused on current_password', () => {
    try {
      decideProfilePasswordChange(registered(), { currentPasswordValid: false, passwordHash: 'new', changeId: 'c1', now });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).fields).toEqual({ current_password: 'errors:wrongCurrentPassword' });
    }
  });

  it('given the right current password, when changing it, then a profile PasswordChanged with its change id is recorded', () => {
    const user = registered();
    const events = decideProfilePasswordChange(user, { currentPasswordValid: true, passwordHash: 'new', changeId: 'c1', now });
    expect(events[0]?.data).toEqual({ userId: 'u1', passwordHash: 'new', changedAt: now.toISOString(), via: 'profile', changeId: 'c1' });
    expect(evolveUser(user, events[0]!)?.passwordHash).toBe('new');
    expect(toUserEvent(events[0]!)).toEqual(events[0]);
  });
});

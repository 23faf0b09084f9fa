// Proves the registration and sign-in schemas give the spec's messages for invalid input.
import { describe, expect, it } from 'vitest';
import { loginInput, passwordResetConfirmInput, registerInput } from './contracts.js';

const valid = {
  userName: 'ada_l',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+15550102030',
  password: 'long enough',
};
const messages = (result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('registerInput', () => {
  it('accepts a complete registration', () => {
    expect(registerInput.safeParse(valid).success).toBe(true);
  });

  it.each(['userName', 'firstName', 'lastName', 'email', 'phone', 'password'])('requires %s with "All fields are required"', (field) => {
    expect(messages(registerInput.safeParse({ ...valid, [field]: '' }))[field]).toBe('errors:allFieldsRequired');
    expect(messages(registerInput.safeParse({ ...valid, [field]: undefined }))[field]).toBe('errors:allFieldsRequired');
  });

  it.each(['ada l', 'ada-l', 'adá', 'ada.l'])('rejects the username %j with the spec message', (userName) => {
    expect(messages(registerInput.safeParse({ ...valid, userName })).userName).toBe('errors:invalidUsername');
  });

  it('rejects a malformed e-mail, a short phone and a short password', () => {
    expect(messages(registerInput.safeParse({ ...valid, email: 'ada@' })).email).toBe('errors:invalidEmail');
    expect(messages(registerInput.safeParse({ ...valid, phone: '12-34' })).phone).toBe('errors:invalidPhone');
    expect(messages(registerInput.safeParse({ ...valid, password: 'short' })).password).toBe('errors:passwordLength');
  });

  it('rejects unknown fields instead of silently accepting them', () => {
    expect(registerInput.safeParse({ ...valid, admin: true }).success).toBe(false);
  });
});

describe('loginInput and reset confirmation', () => {
  it('requires an e-mail in e-mail format and a password', () => {
    expect(messages(loginInput.safeParse({ email: '', password: 'x' })).email).toBe('errors:emailRequired');
    expect(messages(loginInput.safeParse({ email: 'nope', password: 'x' })).email).toBe('errors:invalidEmail');
    expect(messages(loginInput.safeParse({ email: 'a@b.co', password: '' })).password).toBe('errors:passwordRequired');
  });

  it('gives the reset page its messages: missing token, empty fields, mismatch', () => {
    expect(messages(passwordResetConfirmInput.safeParse({ token: '', password: 'abcdefgh', password1: 'abcdefgh' })).token).toBe(
      'errors:invalidResetUrl',
    );
    expect(messages(passwordResetConfirmInput.safeParse({ token: 't', password: '', password1: '' })).password).toBe(
      'errors:allFieldsRequiredDot',
    );
    expect(messages(passwordResetConfirmInput.safeParse({ token: 't', password: 'abcdefgh', password1: 'abcdefgX' })).password1).toBe(
      'errors:passwordsMustMatchDot',
    );
  });
});

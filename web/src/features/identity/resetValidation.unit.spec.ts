// Proves the reset confirmation checks run in the spec's order with the spec's messages.
import { describe, expect, it } from 'vitest';
import { validatePasswordReset } from './resetValidation.js';

const formKey = (result: ReturnType<typeof validatePasswordReset>) => (result.ok ? null : result.errors.form?.key);

describe('validatePasswordReset', () => {
  it('given no token, then "Invalid URL." comes first, whatever the passwords', () => {
    expect(formKey(validatePasswordReset('', { password: '', password1: 'x' }))).toBe('errors:invalidResetUrl');
  });

  it('given an empty password or confirmation, then all fields are required', () => {
    expect(formKey(validatePasswordReset('t', { password: '', password1: 'long enough' }))).toBe('errors:allFieldsRequiredDot');
    expect(formKey(validatePasswordReset('t', { password: 'long enough', password1: '' }))).toBe('errors:allFieldsRequiredDot');
  });

  it('given different passwords, then both must match, before any length rule', () => {
    expect(formKey(validatePasswordReset('t', { password: 'short', password1: 'shorts' }))).toBe('errors:passwordsMustMatchDot');
  });

  it("given equal passwords that are too short, then the shared schema's length rule applies", () => {
    expect(formKey(validatePasswordReset('t', { password: 'short', password1: 'short' }))).toBe('errors:passwordLength');
  });

  it('given a token and equal valid passwords, then the input is ready to send', () => {
    expect(validatePasswordReset('t', { password: 'long enough', password1: 'long enough' })).toEqual({
      ok: true,
      input: { token: 't', password: 'long enough', password1: 'long enough' },
    });
  });
});

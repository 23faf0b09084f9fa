// Proves the one password policy: blank passwords, the account's own username or e-mail and
// common passwords are refused with their own messages, in the shared schemas and the assertion.
import { describe, expect, it } from 'vitest';
import { AppError } from '../shared/errors.js';
import { passwordResetConfirmInput, registerInput } from './contracts.js';
import { assertPasswordPolicy, passwordPolicyProblem } from './password-policy.js';

const owner = { username: 'ada_l', email: 'ada@example.com' };
const common = new Set(['password123', 'iloveyou']);
const isCommon = (password: string) => common.has(password.toLowerCase());

const registration = (password: string) => ({
  userName: 'Ada_Lovelace',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada.lovelace@example.com',
  phone: '+15550102030',
  password,
});

describe('passwordPolicyProblem', () => {
  it.each([
    ['        ', 'errors:passwordBlank'],
    ['\t\n\u00a0 \u2003   ', 'errors:passwordBlank'],
    ['ADA_L', 'errors:passwordIsAccountName'],
    [' Ada@Example.com ', 'errors:passwordIsAccountName'],
    ['Password123', 'errors:passwordTooCommon'],
  ])('given %j, when checked, then it answers %s', (password, problem) => {
    expect(passwordPolicyProblem(password, owner, isCommon)).toBe(problem);
  });

  it('given a long uncommon password, when checked, then there is no problem', () => {
    expect(passwordPolicyProblem('correct horse battery', owner, isCommon)).toBeUndefined();
  });

  it('given no list (the web forms), when a common password is checked, then only the list-free rules apply', () => {
    expect(passwordPolicyProblem('password123', owner)).toBeUndefined();
  });
});

describe('assertPasswordPolicy', () => {
  it('given a common password, when asserted, then a VALIDATION error names the password field', () => {
    const error = (() => {
      try {
        assertPasswordPolicy('iloveyou', owner, isCommon);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'VALIDATION',
      messageKey: 'errors:passwordTooCommon',
      fields: { password: 'errors:passwordTooCommon' },
    });
  });
});

describe('the shared schemas', () => {
  it('given a registration whose password is the username or the e-mail, when parsed, then the password field says so', () => {
    for (const password of ['ada_lovelace', 'ADA.LOVELACE@example.com']) {
      const result = registerInput.safeParse(registration(password));
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['password'], message: 'errors:passwordIsAccountName' })]);
    }
  });

  it('given a blank password, when a registration or a reset is parsed, then it is refused as blank', () => {
    const register = registerInput.safeParse(registration('          '));
    expect(register.error?.issues.map((i) => i.message)).toContain('errors:passwordBlank');
    const reset = passwordResetConfirmInput.safeParse({ token: 't', password: '          ', password1: '          ' });
    expect(reset.error?.issues.map((i) => i.message)).toContain('errors:passwordBlank');
  });

  it('given a good password, when a registration is parsed, then it passes', () => {
    expect(registerInput.safeParse(registration('correct horse battery')).success).toBe(true);
  });
});

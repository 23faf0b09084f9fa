/**
 * The one password policy, for every place a password is chosen: registration, reset, and the
 * later profile change. Besides the length the schemas check, a password must not be blank, must
 * not be the account's own username or e-mail, and must not be one of the passwords attackers
 * try first. The common-password list is large data that only the server holds, so it comes in
 * as a predicate; the web forms check the rest as the user types.
 */
import { AppError } from '../shared/errors.js';

/** Whether a password is on a list of the most common passwords. */
export type IsCommonPassword = (password: string) => boolean;

/** What the password must not equal. */
export interface PasswordOwner {
  username?: string;
  email?: string;
}

const sameText = (a: string, b: string | undefined) => b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();

/** The message key of the first rule the password breaks, or undefined when it keeps them all. */
export function passwordPolicyProblem(password: string, owner: PasswordOwner, isCommon?: IsCommonPassword): string | undefined {
  if (password.trim().length === 0) return 'errors:passwordBlank';
  if (sameText(password, owner.username) || sameText(password, owner.email)) return 'errors:passwordIsAccountName';
  if (isCommon?.(password)) return 'errors:passwordTooCommon';
  return undefined;
}

/** Throws a VALIDATION error on the password field when the password breaks the policy. */
export function assertPasswordPolicy(password: string, owner: PasswordOwner, isCommon: IsCommonPassword): void {
  const problem = passwordPolicyProblem(password, owner, isCommon);
  if (problem) throw new AppError('VALIDATION', problem, { password: problem });
}

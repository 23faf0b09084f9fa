/**
 * The reset confirmation's checks in the spec's order: a missing token ('Invalid URL.'), either
 * password empty ('All fields are required.'), the two different ('Both password must match.'),
 * then the shared schema's remaining rules (password length).
 */
import { passwordResetConfirmInput, type PasswordResetConfirmInput } from '@quern/core/identity';
import type { FormErrors } from '../../ui/formErrors.js';
import type { NewPasswordField } from './NewPasswordForm.js';

export type ResetValidation = { ok: true; input: PasswordResetConfirmInput } | { ok: false; errors: FormErrors<NewPasswordField> };

const fail = (key: string, fields: NewPasswordField[]): ResetValidation => ({
  ok: false,
  errors: { form: { key }, fields: Object.fromEntries(fields.map((field) => [field, null])) },
});

export function validatePasswordReset(token: string, values: Record<NewPasswordField, string>): ResetValidation {
  if (token === '') return fail('errors:invalidResetUrl', []);
  const empty = (['password', 'password1'] as const).filter((field) => values[field] === '');
  if (empty.length > 0) return fail('errors:allFieldsRequiredDot', empty);
  if (values.password !== values.password1) return fail('errors:passwordsMustMatchDot', ['password1']);
  const parsed = passwordResetConfirmInput.safeParse({ token, ...values });
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? 'errors:invalidRequest', ['password']);
  return { ok: true, input: parsed.data };
}

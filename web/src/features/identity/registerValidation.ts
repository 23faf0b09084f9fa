/**
 * The register form's checks, in the spec's order: every field filled ('All fields are
 * required'), then the shared registration schema (username format, e-mail, phone, password
 * length), then the two passwords equal ('Both password must match').
 */
import { registerInput, type RegisterInput } from '@quern/core/identity';
import { firstIssuePerField, type FormErrors } from '../../ui/formErrors.js';

export const registerFields = ['userName', 'firstName', 'lastName', 'email', 'phone', 'password', 'confirmPassword'] as const;
export type RegisterField = (typeof registerFields)[number];
export type RegisterValues = Record<RegisterField, string>;

export const emptyRegisterValues: RegisterValues = {
  userName: '',
  firstName: '',
  lastName: '',
  email: '',
  phone: '',
  password: '',
  confirmPassword: '',
};

export type RegisterValidation = { ok: true; input: RegisterInput } | { ok: false; errors: FormErrors<RegisterField> };

export function validateRegister(values: RegisterValues): RegisterValidation {
  const missing = registerFields.filter((field) => values[field].trim() === '');
  if (missing.length > 0) {
    const fields = Object.fromEntries(missing.map((field) => [field, null]));
    return { ok: false, errors: { form: { key: 'errors:allFieldsRequired' }, fields } };
  }
  const { confirmPassword, ...payload } = values;
  const parsed = registerInput.safeParse(payload);
  const fields: FormErrors<RegisterField>['fields'] = parsed.success ? {} : firstIssuePerField(parsed.error.issues, registerFields);
  if (values.password !== confirmPassword) fields.confirmPassword = 'errors:passwordsMustMatch';
  if (!parsed.success || fields.confirmPassword) return { ok: false, errors: { form: null, fields } };
  return { ok: true, input: parsed.data };
}

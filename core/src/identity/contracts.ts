/**
 * Identity schemas shared by the web forms, the tRPC procedures and the REST routes. Messages
 * are i18n keys ("errors:..."), resolved to text by the web app and by the api's error mapper.
 */
import { z } from 'zod';
import { normalizePhone, usernamePattern } from '../shared/person-keys.js';
import { passwordPolicyProblem } from './password-policy.js';

// The key rules live below every capability (the wallet reads them too); identity's API keeps them.
export { normalizeEmail, normalizePhone, normalizeUsername, usernamePattern } from '../shared/person-keys.js';

const required = 'errors:allFieldsRequired';

/** Digits with an optional leading +; separators people type are stripped first. */
const phoneDigits = /^\+?[0-9]{7,15}$/;

/**
 * A new password: present, 8 to 128 characters, not blank. The rest of the policy needs the
 * account (password-policy.ts). `missing` is the message for an empty field.
 */
const newPassword = (missing: string) =>
  z
    .string({ error: missing })
    .min(1, { error: missing, abort: true })
    .min(8, { error: 'errors:passwordLength' })
    .max(128, { error: 'errors:passwordLength' })
    .refine((password) => password.trim().length > 0, { error: 'errors:passwordBlank' });

// `abort` stops later checks, so an empty field reports only the spec's 'required' message.
const requiredText = () => z.string({ error: required }).trim().min(1, { error: required, abort: true });

export const registerInput = z
  .object({
    userName: requiredText()
      .max(32, { error: 'errors:usernameLength' })
      .regex(usernamePattern, { error: 'errors:invalidUsername' })
      .min(3, { error: 'errors:usernameLength' }),
    firstName: requiredText().max(100, { error: 'errors:nameTooLong' }),
    lastName: requiredText().max(100, { error: 'errors:nameTooLong' }),
    email: requiredText()
      .max(254, { error: 'errors:invalidEmail' })
      .pipe(z.email({ error: 'errors:invalidEmail' })),
    phone: requiredText()
      .transform(normalizePhone)
      .pipe(z.string().regex(phoneDigits, { error: 'errors:invalidPhone' })),
    password: newPassword(required),
  })
  .strict()
  .superRefine((input, ctx) => {
    const problem = passwordPolicyProblem(input.password, { username: input.userName, email: input.email });
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['password'] });
  });
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z.strictObject({
  email: z
    .string({ error: 'errors:emailRequired' })
    .trim()
    .min(1, { error: 'errors:emailRequired', abort: true })
    .pipe(z.email({ error: 'errors:invalidEmail' })),
  // Bounded so a huge body cannot make the hash check expensive.
  password: z
    .string({ error: 'errors:passwordRequired' })
    .min(1, { error: 'errors:passwordRequired' })
    .max(1024, { error: 'errors:invalidCredentials' }),
});
export type LoginInput = z.infer<typeof loginInput>;

export const userIdParam = z.string().uuid({ error: 'errors:notFound' });

/** The session as the spec's auth state carries it. */
export const sessionOutput = z.object({ id: z.string(), email: z.string() });
export type SessionOutput = z.infer<typeof sessionOutput>;

/** The spec's User, as POST /api/user/get/{id} answers it. */
export const userOutput = z.object({
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone_number: z.string(),
});
export type UserOutput = z.infer<typeof userOutput>;

export const passwordResetRequestInput = z.strictObject({
  email: z
    .string({ error: 'errors:emailRequired' })
    .trim()
    .min(1, { error: 'errors:emailRequired', abort: true })
    .pipe(z.email({ error: 'errors:invalidEmail' })),
});
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestInput>;

/** The spec's reset confirmation: token, password, password1 (the repeat). */
export const passwordResetConfirmInput = z
  .object({
    token: z
      .string({ error: 'errors:invalidResetUrl' })
      .min(1, { error: 'errors:invalidResetUrl', abort: true })
      .max(512, { error: 'errors:invalidResetLink' }),
    password: newPassword('errors:allFieldsRequiredDot'),
    password1: z.string({ error: 'errors:allFieldsRequiredDot' }).min(1, { error: 'errors:allFieldsRequiredDot' }),
  })
  .strict()
  .refine((v) => v.password === v.password1, { error: 'errors:passwordsMustMatchDot', path: ['password1'] });
export type PasswordResetConfirmInput = z.infer<typeof passwordResetConfirmInput>;

/** The fields POST /api/user/update/{id} may change, one per call. */
export const profileFields = ['first_name', 'last_name', 'phone_number', 'password'] as const;
export type ProfileField = (typeof profileFields)[number];

/**
 * The profile update body: exactly one of the four fields; a new password also needs the current
 * one (`current_password`), which the old API did not ask for. Names are trimmed, 1 to 100
 * characters; the phone is normalized as at registration. The password policy that needs the
 * account (not its username or e-mail, not a common password) is checked by the handler.
 */
export const userUpdateFields = {
  first_name: requiredText().max(100, { error: 'errors:nameTooLong' }).optional(),
  last_name: requiredText().max(100, { error: 'errors:nameTooLong' }).optional(),
  phone_number: requiredText()
    .transform(normalizePhone)
    .pipe(z.string().regex(phoneDigits, { error: 'errors:invalidPhone' }))
    .optional(),
  password: newPassword(required).optional(),
  // Bounded like sign-in's, so a huge body cannot make the hash check expensive.
  current_password: z
    .string({ error: 'errors:currentPasswordRequired' })
    .min(1, { error: 'errors:currentPasswordRequired' })
    .max(1024, { error: 'errors:wrongCurrentPassword' })
    .optional(),
};

interface UserUpdateShape {
  first_name?: string;
  last_name?: string;
  phone_number?: string;
  password?: string;
  current_password?: string;
}

/** Exactly one field, and the current password exactly when the password changes. */
export function checkUserUpdate(input: UserUpdateShape, ctx: z.RefinementCtx): void {
  const given = profileFields.filter((field) => input[field] !== undefined);
  if (given.length === 0 && input.current_password !== undefined) {
    // A current password alone is a password change without the new one.
    ctx.addIssue({ code: 'custom', message: required, path: ['password'] });
    return;
  }
  if (given.length !== 1) {
    ctx.addIssue({ code: 'custom', message: 'errors:oneProfileField', path: given.length > 1 ? [given[1] as string] : [] });
    return;
  }
  if (input.password !== undefined && input.current_password === undefined) {
    ctx.addIssue({ code: 'custom', message: 'errors:currentPasswordRequired', path: ['current_password'] });
  }
  if (input.password === undefined && input.current_password !== undefined) {
    ctx.addIssue({ code: 'custom', message: 'errors:oneProfileField', path: ['current_password'] });
  }
}

export const userUpdateInput = z.strictObject(userUpdateFields).superRefine(checkUserUpdate);
export type UserUpdateInput = z.infer<typeof userUpdateInput>;

/** A six-digit TOTP code as people type it (spaces stripped). */
const totpCode = z
  .string({ error: 'errors:twoFactorCodeRequired' })
  .transform((code) => code.replace(/\s/g, ''))
  .pipe(
    z
      .string()
      .min(1, { error: 'errors:twoFactorCodeRequired', abort: true })
      .regex(/^[0-9]{6}$/, { error: 'errors:twoFactorCodeInvalid' }),
  );

/** One of the ten recovery codes, as typed (its form is checked against the stored hashes). */
const recoveryCode = z.string().trim().min(1, { error: 'errors:recoveryCodeInvalid' }).max(64, { error: 'errors:recoveryCodeInvalid' });

export const twoFactorConfirmInput = z.strictObject({
  enrollment_id: z.string({ error: 'errors:twoFactorNoEnrollment' }).uuid({ error: 'errors:twoFactorNoEnrollment' }),
  code: totpCode,
});
export type TwoFactorConfirmInput = z.infer<typeof twoFactorConfirmInput>;

export const twoFactorDisableInput = z.strictObject({
  password: z
    .string({ error: 'errors:currentPasswordRequired' })
    .min(1, { error: 'errors:currentPasswordRequired' })
    .max(1024, { error: 'errors:wrongCurrentPassword' }),
  code: totpCode,
});
export type TwoFactorDisableInput = z.infer<typeof twoFactorDisableInput>;

/**
 * Step-up re-authentication (ADR 045): the password again, or a fresh code from the authenticator
 * app when two-factor is on; exactly one of them.
 */
export const reauthenticateInput = z
  .strictObject({
    password: z
      .string({ error: 'errors:currentPasswordRequired' })
      .min(1, { error: 'errors:currentPasswordRequired' })
      .max(1024, { error: 'errors:wrongCurrentPassword' })
      .optional(),
    code: totpCode.optional(),
  })
  .refine((v) => (v.password === undefined) !== (v.code === undefined), {
    error: 'errors:currentPasswordRequired',
    path: ['password'],
  });
export type ReauthenticateInput = z.infer<typeof reauthenticateInput>;

/**
 * Deleting one's own account (ADR 042): the password always, and a code from the authenticator
 * app (or a recovery code) when two-factor is on; the server answers 'errors:twoFactorCodeRequired'
 * when it is on and neither was given.
 */
export const accountDeleteInput = z.strictObject({
  password: z
    .string({ error: 'errors:deletePasswordRequired' })
    .min(1, { error: 'errors:deletePasswordRequired' })
    .max(1024, { error: 'errors:wrongCurrentPassword' }),
  code: totpCode.optional(),
  recovery_code: recoveryCode.optional(),
});
export type AccountDeleteInput = z.infer<typeof accountDeleteInput>;
export const accountDeleteOutput = z.object({ message: z.string() });

/** The second sign-in step: the challenge from the password step and a code or a recovery code. */
export const twoFactorLoginInput = z
  .strictObject({
    challenge: z
      .string({ error: 'errors:twoFactorChallengeInvalid' })
      .min(1, { error: 'errors:twoFactorChallengeInvalid' })
      .max(512, { error: 'errors:twoFactorChallengeInvalid' }),
    code: totpCode.optional(),
    recovery_code: recoveryCode.optional(),
  })
  .refine((v) => (v.code === undefined) !== (v.recovery_code === undefined), { error: 'errors:twoFactorCodeRequired', path: ['code'] });
export type TwoFactorLoginInput = z.infer<typeof twoFactorLoginInput>;

/** The password step's answer when the account has two-factor on: no session yet. */
export const twoFactorRequiredOutput = z.object({ two_factor_required: z.literal(true), challenge: z.string() });
export const loginOutput = z.union([sessionOutput, twoFactorRequiredOutput]);
export type LoginOutput = z.infer<typeof loginOutput>;

/** The verification link's token, as the /verify-email page posts it (ADR 046). */
export const emailVerifyInput = z.strictObject({
  token: z
    .string({ error: 'errors:invalidVerificationLink' })
    .min(1, { error: 'errors:invalidVerificationLink' })
    .max(512, { error: 'errors:invalidVerificationLink' }),
});
export type EmailVerifyInput = z.infer<typeof emailVerifyInput>;

/** Whether the account's e-mail address is proven; `email` is the account's own. */
export const emailVerificationOutput = z.object({ email: z.string(), verified: z.boolean() });

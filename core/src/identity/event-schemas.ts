/**
 * Reading recorded user events back as typed events: each type's data is checked by a schema, so
 * a reader (the job dispatcher, a projection) works with `UserEvent` values instead of picking
 * fields out of untyped JSON by name. Unknown fields are dropped; a malformed event reads as
 * undefined and the caller decides what that means.
 */
import { z } from 'zod';
import type { IdentityKeyEvent, UserEvent } from './events.js';

const id = z.string().min(1).max(128);
const time = z.string().min(1).max(64);

const userEventDataSchemas = {
  UserRegistered: z.object({
    userId: id,
    username: z.string().min(1),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().min(1),
    phone: z.string(),
    passwordHash: z.string().min(1),
    registeredAt: time,
  }),
  UserAccountDeleted: z.object({ userId: id, username: z.string().min(1), deletedAt: time }),
  UserSignedIn: z.object({ userId: id, signedInAt: time }),
  UserSignedOut: z.object({ userId: id, signedOutAt: time }),
  WelcomeEmailSent: z.object({ userId: id, messageId: z.string().min(1), sentAt: time }),
  PasswordResetRequested: z.object({ userId: id, requestId: id, expiresAt: time, requestedAt: time }),
  PasswordResetEmailSent: z.object({ userId: id, requestId: id, messageId: z.string().min(1), sentAt: time }),
  PasswordChanged: z.object({
    userId: id,
    passwordHash: z.string().min(1),
    changedAt: time,
    via: z.enum(['reset', 'profile']),
    requestId: id.optional(),
    changeId: id.optional(),
  }),
  UserNameChanged: z.object({ userId: id, firstName: z.string(), lastName: z.string(), changedAt: time }),
  UserPhoneChanged: z.object({ userId: id, phone: z.string().min(1), previousPhone: z.string(), changedAt: time }),
  PasswordChangedEmailSent: z.object({ userId: id, changeId: id, messageId: z.string().min(1), sentAt: time }),
  TwoFactorEnrollmentStarted: z.object({ userId: id, enrollmentId: id, secret: z.string().min(1), startedAt: time }),
  TwoFactorEnabled: z.object({
    userId: id,
    enrollmentId: id,
    recoveryCodeHashes: z.array(z.string().min(1)),
    usedStep: z.number().int(),
    enabledAt: time,
  }),
  TwoFactorEnabledV2: z.object({
    userId: id,
    enrollmentId: id,
    recoveryCodes: z.string().min(1),
    usedStep: z.number().int(),
    enabledAt: time,
  }),
  TwoFactorDisabled: z.object({ userId: id, disabledAt: time }),
  TwoFactorCodeUsed: z.object({ userId: id, step: z.number().int(), usedAt: time }),
  TwoFactorLocked: z.object({ userId: id, lockId: id, lockedAt: time, until: time }),
  TwoFactorLockedEmailSent: z.object({ userId: id, lockId: id, messageId: z.string().min(1), sentAt: time }),
  RecoveryCodeUsed: z.object({ userId: id, index: z.number().int().min(0), usedAt: time }),
  EmailVerificationRequested: z.object({
    userId: id,
    requestId: id,
    expiresAt: time,
    requestedAt: time,
    via: z.enum(['registration', 'resend']),
  }),
  EmailVerificationEmailSent: z.object({ userId: id, requestId: id, messageId: z.string().min(1), sentAt: time }),
  EmailVerified: z.object({ userId: id, requestId: id, via: z.enum(['link', 'passwordReset']), verifiedAt: time }),
} satisfies Record<UserEvent['type'], z.ZodType>;

const isUserEventType = (type: string): type is UserEvent['type'] => Object.hasOwn(userEventDataSchemas, type);

export function toUserEvent(recorded: { type: string; data: unknown }): UserEvent | undefined {
  if (!isUserEventType(recorded.type)) return undefined;
  const parsed = userEventDataSchemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as UserEvent) : undefined;
}

const identityKey = {
  kind: z.enum(['username', 'email', 'phone']),
  // Sealed personal data (ADR 042): once the holder's account is deleted it reads as '[erased]'.
  value: z.string(),
  userId: id,
};

const identityKeyEventDataSchemas = {
  IdentityKeyClaimed: z.object({ ...identityKey, claimedAt: time }),
  IdentityKeyReleased: z.object({ ...identityKey, releasedAt: time }),
} satisfies Record<IdentityKeyEvent['type'], z.ZodType>;

const isIdentityKeyEventType = (type: string): type is IdentityKeyEvent['type'] => Object.hasOwn(identityKeyEventDataSchemas, type);

/** A recorded event of an identity-key stream as a typed event, or undefined when it is not one or has not its shape. */
export function toIdentityKeyEvent(recorded: { type: string; data: unknown }): IdentityKeyEvent | undefined {
  if (!isIdentityKeyEventType(recorded.type)) return undefined;
  const parsed = identityKeyEventDataSchemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as IdentityKeyEvent) : undefined;
}

/**
 * Identity events. Published event types are never renamed; a new shape gets a new type.
 *
 * Streams:
 * - `user-<userId>`: the account's life (registration, sign-ins, password changes, e-mails sent).
 * - `identity-key-<kind>-<normalized value>`: one stream per unique key (username, e-mail,
 *   phone), claimed by appending with expected revision "no stream", so two registrations can
 *   never hold the same key whatever the concurrency.
 */

export const userStream = (userId: string): string => `user-${userId}`;

export type IdentityKeyKind = 'username' | 'email' | 'phone';
export const identityKeyStream = (kind: IdentityKeyKind, normalizedValue: string): string => `identity-key-${kind}-${normalizedValue}`;

export interface UserRegistered {
  type: 'UserRegistered';
  data: {
    userId: string;
    username: string;
    firstName: string;
    lastName: string;
    /** Normalized (trimmed, lower-case). */
    email: string;
    /** Normalized (separators stripped). */
    phone: string;
    /** argon2id PHC string; the password itself is never stored. */
    passwordHash: string;
    registeredAt: string;
  };
}

export interface UserSignedIn {
  type: 'UserSignedIn';
  data: { userId: string; signedInAt: string };
}

export interface UserSignedOut {
  type: 'UserSignedOut';
  data: { userId: string; signedOutAt: string };
}

/** Completion of the welcome e-mail job that UserRegistered requests. */
export interface WelcomeEmailSent {
  type: 'WelcomeEmailSent';
  data: { userId: string; messageId: string; sentAt: string };
}

/**
 * The reset link's token is `<userId>.<requestId>.<HMAC(APP_SECRET, userId.requestId)>`, so it is
 * never stored anywhere, yet the e-mail job can be rebuilt from this event after a Redis loss.
 */
export interface PasswordResetRequested {
  type: 'PasswordResetRequested';
  data: {
    userId: string;
    requestId: string;
    expiresAt: string;
    requestedAt: string;
  };
}

/** Completion of the e-mail job that PasswordResetRequested requests. */
export interface PasswordResetEmailSent {
  type: 'PasswordResetEmailSent';
  data: { userId: string; requestId: string; messageId: string; sentAt: string };
}

/**
 * `requestId`: the reset request a link change used. `changeId`: a fresh id a profile change
 * carries, naming the notice e-mail job it asks for (older events have neither for 'profile').
 */
export interface PasswordChanged {
  type: 'PasswordChanged';
  data: { userId: string; passwordHash: string; changedAt: string; via: 'reset' | 'profile'; requestId?: string; changeId?: string };
}

/** A profile edit of the name; both parts are recorded, trimmed, whichever one was edited. */
export interface UserNameChanged {
  type: 'UserNameChanged';
  data: { userId: string; firstName: string; lastName: string; changedAt: string };
}

/**
 * A profile edit of the phone (normalized). The new number's identity key is claimed before this
 * is appended and the previous one released after, so two accounts never hold one number.
 */
export interface UserPhoneChanged {
  type: 'UserPhoneChanged';
  data: { userId: string; phone: string; previousPhone: string; changedAt: string };
}

/** Completion of the notice e-mail job that a profile PasswordChanged (with a changeId) requests. */
export interface PasswordChangedEmailSent {
  type: 'PasswordChangedEmailSent';
  data: { userId: string; changeId: string; messageId: string; sentAt: string };
}

/**
 * A two-factor enrollment begun on the profile; it takes effect only when TwoFactorEnabled
 * confirms it with a code. The base32 secret is sealed in the log with the account's key
 * (ADR 042; @quern/core/personal-data), and the api reads it back opened to check codes.
 */
export interface TwoFactorEnrollmentStarted {
  type: 'TwoFactorEnrollmentStarted';
  data: { userId: string; enrollmentId: string; secret: string; startedAt: string };
}

/**
 * The enrollment confirmed by a valid code, as recorded before ADR 045: recovery codes kept as
 * unsalted SHA-256 hashes in the clear. No longer appended; its codes work until used or replaced.
 */
export interface TwoFactorEnabled {
  type: 'TwoFactorEnabled';
  data: { userId: string; enrollmentId: string; recoveryCodeHashes: string[]; usedStep: number; enabledAt: string };
}

/**
 * The enrollment confirmed by a valid code (ADR 045). `recoveryCodes` is one `<name>:<argon2id
 * hash>` per code, space-separated (recovery-codes.ts), sealed in the log with the account's key.
 */
export interface TwoFactorEnabledV2 {
  type: 'TwoFactorEnabledV2';
  data: { userId: string; enrollmentId: string; recoveryCodes: string; usedStep: number; enabledAt: string };
}

export interface TwoFactorDisabled {
  type: 'TwoFactorDisabled';
  data: { userId: string; disabledAt: string };
}

/** A TOTP code accepted at sign-in or to disable; its step can never be used again. */
export interface TwoFactorCodeUsed {
  type: 'TwoFactorCodeUsed';
  data: { userId: string; step: number; usedAt: string };
}

/** A recovery code spent; each one works once. */
export interface RecoveryCodeUsed {
  type: 'RecoveryCodeUsed';
  data: { userId: string; index: number; usedAt: string };
}

/**
 * Wrong two-factor codes from any addresses reached the account's cap (ADR 045): until `until`
 * only a recovery code completes a sign-in. Recorded once per lock; it asks for a mail to the owner.
 */
export interface TwoFactorLocked {
  type: 'TwoFactorLocked';
  data: { userId: string; lockId: string; lockedAt: string; until: string };
}

/** Completion of the mail that TwoFactorLocked asks for. */
export interface TwoFactorLockedEmailSent {
  type: 'TwoFactorLockedEmailSent';
  data: { userId: string; lockId: string; messageId: string; sentAt: string };
}

/**
 * A link mailed to prove the account's e-mail address (ADR 046): a token like the reset link's
 * (`<userId>.<requestId>.<HMAC>`, under its own purpose), never stored. `via`: 'registration'
 * (the welcome mail carries the link) or 'resend' (a mail of its own).
 */
export interface EmailVerificationRequested {
  type: 'EmailVerificationRequested';
  data: { userId: string; requestId: string; expiresAt: string; requestedAt: string; via: 'registration' | 'resend' };
}

/** Completion of the e-mail job that a resent EmailVerificationRequested asks for. */
export interface EmailVerificationEmailSent {
  type: 'EmailVerificationEmailSent';
  data: { userId: string; requestId: string; messageId: string; sentAt: string };
}

/**
 * The account's e-mail address proven by its owner: from then on it can be paid by e-mail and
 * mailed. `via`: the verification link, or a password reset link (it went to the same inbox).
 */
export interface EmailVerified {
  type: 'EmailVerified';
  data: { userId: string; requestId: string; via: 'link' | 'passwordReset'; verifiedAt: string };
}

/**
 * The account deleted by its owner (ADR 042). The key sealing the account's personal data is
 * destroyed right after, so its names, e-mail and phone read as erased everywhere; the username
 * is repeated here because it stays reserved (a read model drops it from lookups from this alone).
 */
export interface UserAccountDeleted {
  type: 'UserAccountDeleted';
  data: { userId: string; username: string; deletedAt: string };
}

export type UserEvent =
  | UserRegistered
  | UserAccountDeleted
  | TwoFactorEnrollmentStarted
  | TwoFactorEnabled
  | TwoFactorEnabledV2
  | TwoFactorDisabled
  | TwoFactorCodeUsed
  | RecoveryCodeUsed
  | TwoFactorLocked
  | TwoFactorLockedEmailSent
  | UserSignedIn
  | UserSignedOut
  | WelcomeEmailSent
  | PasswordResetRequested
  | PasswordResetEmailSent
  | PasswordChanged
  | UserNameChanged
  | UserPhoneChanged
  | PasswordChangedEmailSent
  | EmailVerificationRequested
  | EmailVerificationEmailSent
  | EmailVerified;

export interface IdentityKeyClaimed {
  type: 'IdentityKeyClaimed';
  data: { kind: IdentityKeyKind; value: string; userId: string; claimedAt: string };
}

/** Frees a key claimed by a registration that could not complete (another key was taken). */
export interface IdentityKeyReleased {
  type: 'IdentityKeyReleased';
  data: { kind: IdentityKeyKind; value: string; userId: string; releasedAt: string };
}

export type IdentityKeyEvent = IdentityKeyClaimed | IdentityKeyReleased;

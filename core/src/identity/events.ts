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

/** The enrollment confirmed by a valid code; recovery codes are kept only as SHA-256 hashes. */
export interface TwoFactorEnabled {
  type: 'TwoFactorEnabled';
  data: { userId: string; enrollmentId: string; recoveryCodeHashes: string[]; usedStep: number; enabledAt: string };
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
  | TwoFactorDisabled
  | TwoFactorCodeUsed
  | RecoveryCodeUsed
  | UserSignedIn
  | UserSignedOut
  | WelcomeEmailSent
  | PasswordResetRequested
  | PasswordResetEmailSent
  | PasswordChanged
  | UserNameChanged
  | UserPhoneChanged
  | PasswordChangedEmailSent;

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

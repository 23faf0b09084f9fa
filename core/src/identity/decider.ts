/**
 * Pure identity decisions: given state and inputs (time and ids included as data), which events
 * happen, or which domain error. No I/O, no clock, no randomness.
 */
import { AppError, RefusalError } from '../shared/errors.js';
import type { RegisterInput } from './contracts.js';
import { normalizeEmail } from './contracts.js';
import type {
  IdentityKeyClaimed,
  IdentityKeyKind,
  IdentityKeyReleased,
  PasswordChanged,
  PasswordResetRequested,
  UserNameChanged,
  UserPhoneChanged,
  UserRegistered,
} from './events.js';
import type { IdentityKeyState, UserState } from './state.js';

/** A claim left by a registration that died half-way is free again after this long. */
export const ORPHANED_CLAIM_AFTER_MS = 5 * 60 * 1000;
/** How long a password reset link stays valid. */
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
/** Reset e-mails one account can be sent in an hour, so the form cannot flood an inbox. */
export const RESET_REQUESTS_PER_HOUR_MAX = 3;
const HOUR_MS = 60 * 60 * 1000;

const takenMessage: Record<IdentityKeyKind, string> = {
  username: 'errors:usernameTaken',
  email: 'errors:emailTaken',
  phone: 'errors:phoneTaken',
};
/** The registration form's field for each unique key, so the 409 names the field. */
export const keyField: Record<IdentityKeyKind, 'userName' | 'email' | 'phone'> = {
  username: 'userName',
  email: 'email',
  phone: 'phone',
};

export function takenError(kind: IdentityKeyKind): AppError {
  return new AppError('CONFLICT', takenMessage[kind], { [keyField[kind]]: takenMessage[kind] });
}

export interface ClaimContext {
  kind: IdentityKeyKind;
  value: string;
  userId: string;
  now: Date;
  /** Whether the current holder's registration ever completed (its user stream exists). */
  holderRegistered: boolean;
  /** Whether the current holder deleted the account (ADR 042). */
  holderDeleted?: boolean;
}

/**
 * Claims a unique key. A key held by a completed registration is taken; a key held by a
 * registration that never completed is reclaimed once it is old enough to be orphaned.
 */
export function decideClaim(state: IdentityKeyState, c: ClaimContext): Array<IdentityKeyClaimed | IdentityKeyReleased> {
  const claimed: IdentityKeyClaimed = {
    type: 'IdentityKeyClaimed',
    data: { kind: c.kind, value: c.value, userId: c.userId, claimedAt: c.now.toISOString() },
  };
  if (!state.holderUserId) return [claimed];
  if (state.holderUserId === c.userId) return [];
  const ageMs = c.now.getTime() - Date.parse(state.claimedAt ?? '');
  const orphaned = !c.holderRegistered && ageMs >= ORPHANED_CLAIM_AFTER_MS;
  // A deleted account's e-mail and phone are free again; its username stays reserved, so no one
  // can pose under it to the people who paid or were paid by it.
  const freed = c.holderDeleted === true && c.kind !== 'username';
  if (!orphaned && !freed) throw takenError(c.kind);
  const released: IdentityKeyReleased = {
    type: 'IdentityKeyReleased',
    data: { kind: c.kind, value: c.value, userId: state.holderUserId, releasedAt: c.now.toISOString() },
  };
  return [released, claimed];
}

export function decideRelease(
  state: IdentityKeyState,
  kind: IdentityKeyKind,
  value: string,
  userId: string,
  now: Date,
): IdentityKeyReleased[] {
  if (state.holderUserId !== userId) return [];
  return [{ type: 'IdentityKeyReleased', data: { kind, value, userId, releasedAt: now.toISOString() } }];
}

export function decideRegistration(
  existing: UserState | undefined,
  input: RegisterInput,
  c: { userId: string; passwordHash: string; now: Date },
): UserRegistered[] {
  // User ids are fresh UUIDs, so an existing stream means the id was reused: refuse, never merge.
  if (existing) throw new AppError('CONFLICT', 'errors:internal');
  return [
    {
      type: 'UserRegistered',
      data: {
        userId: c.userId,
        username: input.userName,
        firstName: input.firstName,
        lastName: input.lastName,
        email: normalizeEmail(input.email),
        phone: input.phone,
        passwordHash: c.passwordHash,
        registeredAt: c.now.toISOString(),
      },
    },
  ];
}

/**
 * Records a reset request, unless the account already had RESET_REQUESTS_PER_HOUR_MAX in the
 * last hour: then nothing happens, and the caller answers as always (no error, which would tell
 * a stranger the account exists).
 */
export function decidePasswordResetRequest(user: UserState, c: { requestId: string; now: Date }): PasswordResetRequested[] {
  const since = c.now.getTime() - HOUR_MS;
  let lastHour = 0;
  for (const request of user.resetRequests.values()) if (Date.parse(request.requestedAt) > since) lastHour += 1;
  if (lastHour >= RESET_REQUESTS_PER_HOUR_MAX) return [];
  return [
    {
      type: 'PasswordResetRequested',
      data: {
        userId: user.userId,
        requestId: c.requestId,
        expiresAt: new Date(c.now.getTime() + RESET_LINK_TTL_MS).toISOString(),
        requestedAt: c.now.toISOString(),
      },
    },
  ];
}

/** A reset link works once, before it expires, and only for the request it was made for. */
export function decidePasswordReset(
  user: UserState | undefined,
  c: { requestId: string; passwordHash: string; now: Date },
): PasswordChanged[] {
  const request = user?.resetRequests.get(c.requestId);
  if (!user || !request || request.used || Date.parse(request.expiresAt) <= c.now.getTime()) {
    throw new AppError('VALIDATION', 'errors:invalidResetLink');
  }
  return [
    {
      type: 'PasswordChanged',
      data: { userId: user.userId, passwordHash: c.passwordHash, changedAt: c.now.toISOString(), via: 'reset', requestId: c.requestId },
    },
  ];
}

/** Only the account itself edits its profile; an unknown account is not found. */
export function assertOwnAccount(user: UserState | undefined, requesterId: string, userId: string): UserState {
  if (requesterId !== userId) throw new AppError('FORBIDDEN', 'errors:forbidden');
  if (!user) throw new AppError('NOT_FOUND', 'errors:notFound');
  return user;
}

/** A name edit (already trimmed and bounded by the schema); saving the same name records nothing. */
export function decideNameChange(user: UserState, c: { firstName?: string; lastName?: string; now: Date }): UserNameChanged[] {
  const firstName = c.firstName ?? user.firstName;
  const lastName = c.lastName ?? user.lastName;
  if (firstName === user.firstName && lastName === user.lastName) return [];
  return [{ type: 'UserNameChanged', data: { userId: user.userId, firstName, lastName, changedAt: c.now.toISOString() } }];
}

/** A phone edit (normalized); the caller has claimed the new number's key. The same number records nothing. */
export function decidePhoneChange(user: UserState, c: { phone: string; now: Date }): UserPhoneChanged[] {
  if (c.phone === user.phone) return [];
  return [
    { type: 'UserPhoneChanged', data: { userId: user.userId, phone: c.phone, previousPhone: user.phone, changedAt: c.now.toISOString() } },
  ];
}

/**
 * A password change from the profile: only with the current password (checked by the caller
 * against the hash in this state), so a borrowed session cannot lock the owner out.
 */
export function decideProfilePasswordChange(
  user: UserState,
  c: { currentPasswordValid: boolean; passwordHash: string; changeId: string; now: Date },
): PasswordChanged[] {
  if (!c.currentPasswordValid) {
    throw new RefusalError('wrongCurrentPassword', 'VALIDATION', 'errors:wrongCurrentPassword', {
      current_password: 'errors:wrongCurrentPassword',
    });
  }
  return [
    {
      type: 'PasswordChanged',
      data: { userId: user.userId, passwordHash: c.passwordHash, changedAt: c.now.toISOString(), via: 'profile', changeId: c.changeId },
    },
  ];
}

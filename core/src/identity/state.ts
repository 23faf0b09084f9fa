/** Folds a user stream into the state the identity decisions need. */
import { assertNever } from '../shared/assert.js';
import { strictParser, type StreamModel } from '../shared/command-handler.js';
import { toIdentityKeyEvent, toUserEvent } from './event-schemas.js';
import type { IdentityKeyEvent, UserEvent } from './events.js';
import { decodeRecoveryCodes, type RecoveryCodeRecord } from './recovery-codes.js';

export interface ResetRequestState {
  requestedAt: string;
  expiresAt: string;
  used: boolean;
}

export interface UserState {
  userId: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  passwordHash: string;
  resetRequests: Map<string, ResetRequestState>;
  /** Verification links mailed (ADR 046); `used` once one proved the address. */
  verificationRequests: Map<string, ResetRequestState>;
  /** Set once the owner proved the e-mail address; until then it is neither paid nor mailed (ADR 046). */
  emailVerifiedAt?: string;
  twoFactor: TwoFactorState;
  /** Set by UserAccountDeleted: the account is gone, only its username stays reserved. */
  deletedAt?: string;
}

export interface TwoFactorState {
  /** A started enrollment waiting for its confirming code. */
  pending?: { enrollmentId: string; secret: string };
  /** Present while two-factor is on. */
  enabled?: { secret: string; recoveryCodes: RecoveryCodeRecord[]; usedRecoveryCodes: Set<number> };
  /** The last TOTP step accepted, so one code cannot be used twice. */
  lastUsedStep?: number;
}

export function evolveUser(state: UserState | undefined, event: UserEvent): UserState | undefined {
  switch (event.type) {
    case 'UserRegistered': {
      const d = event.data;
      return {
        userId: d.userId,
        username: d.username,
        firstName: d.firstName,
        lastName: d.lastName,
        email: d.email,
        phone: d.phone,
        passwordHash: d.passwordHash,
        resetRequests: new Map(),
        verificationRequests: new Map(),
        twoFactor: {},
      };
    }
    case 'PasswordResetRequested': {
      if (!state) return state;
      const resetRequests = new Map(state.resetRequests);
      resetRequests.set(event.data.requestId, {
        requestedAt: event.data.requestedAt,
        expiresAt: event.data.expiresAt,
        used: false,
      });
      return { ...state, resetRequests };
    }
    case 'PasswordChanged': {
      if (!state) return state;
      // Any change, by a link or on the profile, voids every link issued before it: a link mailed
      // to an inbox someone else reads must not outlive the password it was asked to replace.
      const resetRequests = new Map([...state.resetRequests].map(([id, request]) => [id, { ...request, used: true }]));
      return { ...state, passwordHash: event.data.passwordHash, resetRequests };
    }
    case 'EmailVerificationRequested': {
      if (!state) return state;
      const verificationRequests = new Map(state.verificationRequests);
      verificationRequests.set(event.data.requestId, {
        requestedAt: event.data.requestedAt,
        expiresAt: event.data.expiresAt,
        used: false,
      });
      return { ...state, verificationRequests };
    }
    case 'EmailVerified': {
      if (!state) return state;
      const verificationRequests = new Map(state.verificationRequests);
      const request = verificationRequests.get(event.data.requestId);
      if (request) verificationRequests.set(event.data.requestId, { ...request, used: true });
      return { ...state, verificationRequests, emailVerifiedAt: state.emailVerifiedAt ?? event.data.verifiedAt };
    }
    case 'UserNameChanged':
      if (!state) return state;
      return { ...state, firstName: event.data.firstName, lastName: event.data.lastName };
    case 'UserPhoneChanged':
      if (!state) return state;
      return { ...state, phone: event.data.phone };
    case 'TwoFactorEnrollmentStarted':
      if (!state) return state;
      return {
        ...state,
        twoFactor: { ...state.twoFactor, pending: { enrollmentId: event.data.enrollmentId, secret: event.data.secret } },
      };
    case 'TwoFactorEnabled':
    case 'TwoFactorEnabledV2': {
      const pending = state?.twoFactor.pending;
      if (!state || !pending) return state;
      const recoveryCodes: RecoveryCodeRecord[] =
        event.type === 'TwoFactorEnabled'
          ? event.data.recoveryCodeHashes.map((hash) => ({ kind: 'sha256', hash }))
          : decodeRecoveryCodes(event.data.recoveryCodes);
      const enabled = { secret: pending.secret, recoveryCodes, usedRecoveryCodes: new Set<number>() };
      return { ...state, twoFactor: { enabled, lastUsedStep: event.data.usedStep } };
    }
    case 'TwoFactorDisabled':
      if (!state) return state;
      return { ...state, twoFactor: { lastUsedStep: state.twoFactor.lastUsedStep } };
    case 'TwoFactorCodeUsed':
      if (!state) return state;
      return { ...state, twoFactor: { ...state.twoFactor, lastUsedStep: event.data.step } };
    case 'RecoveryCodeUsed': {
      const enabled = state?.twoFactor.enabled;
      if (!state || !enabled) return state;
      const usedRecoveryCodes = new Set(enabled.usedRecoveryCodes).add(event.data.index);
      return { ...state, twoFactor: { ...state.twoFactor, enabled: { ...enabled, usedRecoveryCodes } } };
    }
    case 'UserAccountDeleted':
      if (!state) return state;
      return { ...state, deletedAt: event.data.deletedAt, twoFactor: {} };
    case 'UserSignedIn':
    case 'UserSignedOut':
    case 'TwoFactorLocked':
    case 'TwoFactorLockedEmailSent':
    case 'WelcomeEmailSent':
    case 'PasswordResetEmailSent':
    case 'PasswordChangedEmailSent':
    case 'EmailVerificationEmailSent':
      return state;
    default:
      return assertNever(event);
  }
}

export interface IdentityKeyState {
  /** The user holding the key, when claimed. */
  holderUserId?: string;
  claimedAt?: string;
}

export function evolveIdentityKey(_state: IdentityKeyState, event: IdentityKeyEvent): IdentityKeyState {
  switch (event.type) {
    case 'IdentityKeyClaimed':
      return { holderUserId: event.data.userId, claimedAt: event.data.claimedAt };
    case 'IdentityKeyReleased':
      return {};
    default:
      return assertNever(event);
  }
}

/** A user stream for the command pipeline: nothing before UserRegistered; an event it cannot read is refused. */
export const userModel: StreamModel<UserState | undefined, UserEvent> = {
  initialState: () => undefined,
  evolve: evolveUser,
  parse: strictParser(toUserEvent),
};

/** An identity-key stream, read the same way. */
export const identityKeyModel: StreamModel<IdentityKeyState, IdentityKeyEvent> = {
  initialState: () => ({}),
  evolve: evolveIdentityKey,
  parse: strictParser(toIdentityKeyEvent),
};

/** The account as the handlers act on it: none once it is deleted (it signs in, edits and pays nothing). */
export const liveUser = (state: UserState | undefined): UserState | undefined => (state?.deletedAt === undefined ? state : undefined);

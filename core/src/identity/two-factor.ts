/**
 * Two-factor sign-in with TOTP (ADR 040): the pure decisions and their handlers. Computing codes
 * needs a TOTP library, so the api passes it in as `TotpCodes`; core only decides which step a
 * code matched may be spent, so a code works once (never a step at or before the last used one).
 */
import { AppError } from '../shared/errors.js';
import type {
  RecoveryCodeUsed,
  TwoFactorCodeUsed,
  TwoFactorDisabled,
  TwoFactorEnabled,
  TwoFactorEnrollmentStarted,
  UserEvent,
} from './events.js';
import { appendToUser, loadUser } from './handlers.js';
import type { IdentityDeps } from './ports.js';
import type { UserState } from './state.js';

/** How many recovery codes an enrollment hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** What the api's TOTP library does for core. */
export interface TotpCodes {
  /** A new random base32 secret. */
  newSecret(): string;
  /** The time step the code matches within ±1 step of now, or undefined. */
  matchStep(secret: string, code: string, now: Date): number | undefined;
  /** Ten fresh recovery codes with their hashes (the codes are shown once, the hashes kept). */
  newRecoveryCodes(): { codes: string[]; hashes: string[] };
  /** The hash a recovery code as typed is kept under. */
  hashRecoveryCode(code: string): string;
}

const wrongCode = () => new AppError('VALIDATION', 'errors:twoFactorCodeInvalid', { code: 'errors:twoFactorCodeInvalid' });

/** A matched step is spendable only when later than the last one spent. */
function assertFreshStep(user: UserState, step: number | undefined): number {
  const last = user.twoFactor.lastUsedStep;
  if (step === undefined || (last !== undefined && step <= last)) throw wrongCode();
  return step;
}

export function decideTwoFactorStart(
  user: UserState,
  c: { enrollmentId: string; secret: string; now: Date },
): TwoFactorEnrollmentStarted[] {
  if (user.twoFactor.enabled) throw new AppError('CONFLICT', 'errors:twoFactorAlreadyOn');
  return [
    {
      type: 'TwoFactorEnrollmentStarted',
      data: { userId: user.userId, enrollmentId: c.enrollmentId, secret: c.secret, startedAt: c.now.toISOString() },
    },
  ];
}

/** Only a valid code for the pending secret turns two-factor on. */
export function decideTwoFactorConfirm(
  user: UserState,
  c: { enrollmentId: string; step: number | undefined; recoveryCodeHashes: string[]; now: Date },
): TwoFactorEnabled[] {
  if (user.twoFactor.enabled) throw new AppError('CONFLICT', 'errors:twoFactorAlreadyOn');
  if (user.twoFactor.pending?.enrollmentId !== c.enrollmentId) throw new AppError('VALIDATION', 'errors:twoFactorNoEnrollment');
  const usedStep = assertFreshStep(user, c.step);
  return [
    {
      type: 'TwoFactorEnabled',
      data: {
        userId: user.userId,
        enrollmentId: c.enrollmentId,
        recoveryCodeHashes: c.recoveryCodeHashes,
        usedStep,
        enabledAt: c.now.toISOString(),
      },
    },
  ];
}

/** A sign-in's second factor: a fresh TOTP code, or an unused recovery code (by its hash). */
export function decideSecondFactor(
  user: UserState,
  c: { step?: number | undefined; recoveryCodeHash?: string; now: Date },
): Array<TwoFactorCodeUsed | RecoveryCodeUsed> {
  const enabled = user.twoFactor.enabled;
  if (!enabled) throw new AppError('VALIDATION', 'errors:twoFactorNotOn');
  if (c.recoveryCodeHash !== undefined) {
    const index = enabled.recoveryCodeHashes.indexOf(c.recoveryCodeHash);
    if (index < 0 || enabled.usedRecoveryCodes.has(index)) {
      throw new AppError('VALIDATION', 'errors:recoveryCodeInvalid', { recovery_code: 'errors:recoveryCodeInvalid' });
    }
    return [{ type: 'RecoveryCodeUsed', data: { userId: user.userId, index, usedAt: c.now.toISOString() } }];
  }
  const step = assertFreshStep(user, c.step);
  return [{ type: 'TwoFactorCodeUsed', data: { userId: user.userId, step, usedAt: c.now.toISOString() } }];
}

/** Turning two-factor off takes the password and a fresh code, so a borrowed session cannot. */
export function decideTwoFactorDisable(
  user: UserState,
  c: { passwordValid: boolean; step: number | undefined; now: Date },
): Array<TwoFactorCodeUsed | TwoFactorDisabled> {
  if (!user.twoFactor.enabled) throw new AppError('VALIDATION', 'errors:twoFactorNotOn');
  if (!c.passwordValid) {
    throw new AppError('VALIDATION', 'errors:wrongCurrentPassword', { current_password: 'errors:wrongCurrentPassword' });
  }
  const step = assertFreshStep(user, c.step);
  return [
    { type: 'TwoFactorCodeUsed', data: { userId: user.userId, step, usedAt: c.now.toISOString() } },
    { type: 'TwoFactorDisabled', data: { userId: user.userId, disabledAt: c.now.toISOString() } },
  ];
}

export interface TwoFactorEnrollment {
  enrollmentId: string;
  secret: string;
}

export async function startTwoFactor(deps: IdentityDeps, totp: TotpCodes, userId: string): Promise<TwoFactorEnrollment> {
  const enrollment = { enrollmentId: deps.newId(), secret: totp.newSecret() };
  await appendToUser(deps, userId, (user) => decideTwoFactorStart(user, { ...enrollment, now: deps.clock.now() }));
  return enrollment;
}

/** Confirms the pending enrollment; answers the recovery codes, the only time they exist in clear. */
export async function confirmTwoFactor(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { enrollmentId: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const recovery = totp.newRecoveryCodes();
  await appendToUser(deps, userId, (user) => {
    const now = deps.clock.now();
    const secret = user.twoFactor.pending?.secret;
    const step = secret === undefined ? undefined : totp.matchStep(secret, input.code, now);
    return decideTwoFactorConfirm(user, { enrollmentId: input.enrollmentId, step, recoveryCodeHashes: recovery.hashes, now });
  });
  return { recoveryCodes: recovery.codes };
}

/** Spends a second factor at sign-in; throws VALIDATION for a wrong or reused one. */
export async function verifySecondFactor(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { code?: string; recoveryCode?: string },
): Promise<void> {
  await appendToUser(deps, userId, (user): UserEvent[] => {
    const now = deps.clock.now();
    if (input.recoveryCode !== undefined)
      return decideSecondFactor(user, { recoveryCodeHash: totp.hashRecoveryCode(input.recoveryCode), now });
    const secret = user.twoFactor.enabled?.secret;
    const step = secret === undefined ? undefined : totp.matchStep(secret, input.code ?? '', now);
    return decideSecondFactor(user, { step, now });
  });
}

export async function disableTwoFactor(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { password: string; code: string },
): Promise<void> {
  const { state } = await loadUser(deps, userId);
  if (!state) throw new AppError('NOT_FOUND', 'errors:notFound');
  const passwordValid = await deps.hasher.verify(state.passwordHash, input.password);
  await appendToUser(deps, userId, (user) => {
    const now = deps.clock.now();
    const secret = user.twoFactor.enabled?.secret;
    const step = secret === undefined ? undefined : totp.matchStep(secret, input.code, now);
    return decideTwoFactorDisable(user, { passwordValid, step, now });
  });
}

/** Whether the account signs in with a second factor. */
export async function twoFactorStatus(deps: IdentityDeps, userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const { state } = await loadUser(deps, userId);
  const enabled = state?.twoFactor.enabled;
  return {
    enabled: enabled !== undefined,
    recoveryCodesLeft: enabled ? enabled.recoveryCodeHashes.length - enabled.usedRecoveryCodes.size : 0,
  };
}

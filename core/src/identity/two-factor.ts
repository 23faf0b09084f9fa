/**
 * Two-factor sign-in with TOTP (ADR 040): the pure decisions and their handlers. Computing codes
 * needs a TOTP library, so the api passes it in as `TotpCodes`; core only decides which step a
 * code matched may be spent, so a code works once (never a step at or before the last used one).
 */
import { AppError, RefusalError } from '../shared/errors.js';
import type {
  RecoveryCodeUsed,
  TwoFactorCodeUsed,
  TwoFactorDisabled,
  TwoFactorEnabledV2,
  TwoFactorEnrollmentStarted,
  TwoFactorLocked,
} from './events.js';
import { changeUser, decideOnUser, loadUser, recordUserFact } from './handlers.js';
import type { IdentityDeps } from './ports.js';
import { encodeRecoveryCodes, hashRecoveryCodes, matchRecoveryCode } from './recovery-codes.js';
import type { UserState } from './state.js';

/** How many recovery codes an enrollment hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** What the api's TOTP library does for core. */
export interface TotpCodes {
  /** A new random base32 secret. */
  newSecret(): string;
  /** The time step the code matches within ±1 step of now, or undefined. */
  matchStep(secret: string, code: string, now: Date): number | undefined;
  /** Ten fresh recovery codes as shown (recovery-codes.ts), with distinct names. */
  newRecoveryCodes(): string[];
  /** The SHA-256 an enrollment recorded before ADR 045 kept a recovery code under. */
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
  c: { enrollmentId: string; step: number | undefined; recoveryCodes: ReadonlyArray<{ name: string; hash: string }>; now: Date },
): TwoFactorEnabledV2[] {
  if (user.twoFactor.enabled) throw new AppError('CONFLICT', 'errors:twoFactorAlreadyOn');
  if (user.twoFactor.pending?.enrollmentId !== c.enrollmentId) throw new AppError('VALIDATION', 'errors:twoFactorNoEnrollment');
  const usedStep = assertFreshStep(user, c.step);
  return [
    {
      type: 'TwoFactorEnabledV2',
      data: {
        userId: user.userId,
        enrollmentId: c.enrollmentId,
        recoveryCodes: encodeRecoveryCodes(c.recoveryCodes),
        usedStep,
        enabledAt: c.now.toISOString(),
      },
    },
  ];
}

/**
 * A sign-in's second factor: a fresh TOTP code, or an unused recovery code (`recovery.index`: the
 * code a typed one matched, undefined when none did; matchRecoveryCode).
 */
export function decideSecondFactor(
  user: UserState,
  c: { step?: number | undefined; recovery?: { index: number | undefined }; now: Date },
): Array<TwoFactorCodeUsed | RecoveryCodeUsed> {
  const enabled = user.twoFactor.enabled;
  if (!enabled) throw new AppError('VALIDATION', 'errors:twoFactorNotOn');
  if (c.recovery !== undefined) {
    const index = c.recovery.index;
    if (index === undefined || index < 0 || index >= enabled.recoveryCodes.length || enabled.usedRecoveryCodes.has(index)) {
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
    throw new RefusalError('wrongCurrentPassword', 'VALIDATION', 'errors:wrongCurrentPassword', {
      current_password: 'errors:wrongCurrentPassword',
    });
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
  await changeUser(deps, userId, (user, now) => decideTwoFactorStart(user, { ...enrollment, now }));
  return enrollment;
}

/** Confirms the pending enrollment; answers the recovery codes, the only time they exist in clear. */
export async function confirmTwoFactor(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { enrollmentId: string; code: string },
): Promise<{ recoveryCodes: string[] }> {
  const codes = totp.newRecoveryCodes();
  let hashed: Array<{ name: string; hash: string }> | undefined;
  await decideOnUser(
    deps,
    userId,
    async (user) => {
      const secret = user.twoFactor.pending?.secret;
      const step = secret === undefined ? undefined : totp.matchStep(secret, input.code, deps.clock.now());
      // Hashing ten codes takes ten argon2id runs: only once the code was right, and once.
      if (step !== undefined) hashed ??= await hashRecoveryCodes(deps.hasher, codes);
      return { step, recoveryCodes: hashed ?? [] };
    },
    (user, matched, now) => decideTwoFactorConfirm(user, { enrollmentId: input.enrollmentId, ...matched, now }),
  );
  return { recoveryCodes: codes };
}

/** Which unused recovery code of the account a typed one is (one argon2id verification at most). */
export async function recoveryCodeIndex(deps: IdentityDeps, totp: TotpCodes, user: UserState, typed: string): Promise<number | undefined> {
  const enabled = user.twoFactor.enabled;
  if (!enabled) return undefined;
  return matchRecoveryCode(deps.hasher, totp.hashRecoveryCode, enabled.recoveryCodes, enabled.usedRecoveryCodes, typed);
}

/** What a typed second factor matched on the account as read: a TOTP step, or a recovery code's index. */
type SecondFactor = { step?: number | undefined; recovery?: { index: number | undefined } };

/** Spends a second factor at sign-in; throws VALIDATION for a wrong or reused one. */
export async function verifySecondFactor(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { code?: string; recoveryCode?: string },
): Promise<void> {
  await decideOnUser(
    deps,
    userId,
    async (user): Promise<SecondFactor> => {
      if (input.recoveryCode !== undefined) return { recovery: { index: await recoveryCodeIndex(deps, totp, user, input.recoveryCode) } };
      const secret = user.twoFactor.enabled?.secret;
      return { step: secret === undefined ? undefined : totp.matchStep(secret, input.code ?? '', deps.clock.now()) };
    },
    (user, factor, now) => decideSecondFactor(user, { ...factor, now }),
  );
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
  await changeUser(deps, userId, (user, now) => {
    const secret = user.twoFactor.enabled?.secret;
    const step = secret === undefined ? undefined : totp.matchStep(secret, input.code, now);
    return decideTwoFactorDisable(user, { passwordValid, step, now });
  });
}

/**
 * Records that wrong codes reached the account's cap (the api counts them across addresses and
 * calls this once per lock); the workers mail the owner from it.
 */
export async function recordTwoFactorLock(deps: IdentityDeps, userId: string, until: Date): Promise<void> {
  const now = deps.clock.now();
  const locked: TwoFactorLocked = {
    type: 'TwoFactorLocked',
    data: { userId, lockId: deps.newId(), lockedAt: now.toISOString(), until: until.toISOString() },
  };
  await recordUserFact(deps, userId, [locked]);
}

/**
 * Proves again who holds a session (step-up, ADR 045): the password, or a fresh TOTP code when
 * two-factor is on (spent like at sign-in). Throws VALIDATION for a wrong one; records nothing else.
 */
export async function proveIdentity(
  deps: IdentityDeps,
  totp: TotpCodes,
  userId: string,
  input: { password?: string | undefined; code?: string | undefined },
): Promise<void> {
  const { state } = await loadUser(deps, userId);
  if (!state) throw new AppError('NOT_FOUND', 'errors:notFound');
  if (input.code !== undefined) {
    await verifySecondFactor(deps, totp, userId, { code: input.code });
    return;
  }
  if (!(await deps.hasher.verify(state.passwordHash, input.password ?? ''))) {
    throw new RefusalError('wrongCurrentPassword', 'VALIDATION', 'errors:wrongCurrentPassword', {
      password: 'errors:wrongCurrentPassword',
    });
  }
}

/** Whether the account signs in with a second factor. */
export async function twoFactorStatus(deps: IdentityDeps, userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const { state } = await loadUser(deps, userId);
  const enabled = state?.twoFactor.enabled;
  return {
    enabled: enabled !== undefined,
    recoveryCodesLeft: enabled ? enabled.recoveryCodes.length - enabled.usedRecoveryCodes.size : 0,
  };
}

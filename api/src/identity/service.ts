/**
 * The identity use cases as the api offers them: the core handlers plus what only the api
 * knows about (sessions and their cookie, rate limits by IP, reset-link MACs). tRPC and REST
 * both call this, so they cannot drift apart.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CookieOptions } from 'express';
import { AppError, type Clock } from '@quern/core';
import {
  deleteOwnAccount,
  authenticate,
  confirmTwoFactor,
  disableTwoFactor,
  getOwnProfile,
  loadUser,
  normalizeEmail,
  recordSignIn,
  recordSignOut,
  registerUser,
  requestPasswordReset,
  resetPassword,
  startTwoFactor,
  twoFactorStatus,
  updateOwnProfile,
  verifySecondFactor,
  type AccountDeleteInput,
  type IdentityDeps,
  type LoginInput,
  type LoginOutput,
  type TwoFactorConfirmInput,
  type TwoFactorDisableInput,
  type TwoFactorLoginInput,
  type PasswordResetConfirmInput,
  type PasswordResetRequestInput,
  type RegisterInput,
  type SessionOutput,
  type UserOutput,
  type UserUpdateInput,
} from '@quern/core/identity';
import { verifyResetToken } from '@quern/core/identity';
import type { HttpExchange } from '../http/context.js';
import { readCookie } from '../http/cookies.js';
import { requestLanguage } from '../http/rest.js';
import { assertNotBlocked, consume, isOver, limitRequest, tooManyAttempts, type IdentityLimits } from './limits.js';
import { SESSION_COOKIE, type Session, type SessionStore } from './sessions.js';
import { enrollmentQr, makeChallenge, readChallenge, totpCodes } from './totp.js';

export interface IdentityServiceDeps {
  core: IdentityDeps;
  sessions: SessionStore;
  limits: IdentityLimits;
  clock: Clock;
  appSecret: string;
  secureCookies: boolean;
  /** Opens the new user's wallet; a failure here is repaired by the wallet's lazy open. */
  openWallet: (userId: string) => Promise<unknown>;
  /**
   * Before an account is deleted: closes its wallet (refused unless empty) and ends what it runs
   * (plans, subscriptions, API key, webhooks), so no money moves to or from it afterwards.
   */
  closeAccount: (userId: string) => Promise<void>;
  /** The deletion's answer in the request's language. */
  deletedMessage: (language: string) => string;
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** Behind a reverse proxy this is the client's address only when TRUST_PROXY names the proxy. */
const clientIp = (http: HttpExchange) => http.req.ip ?? 'unknown';

/** Longer than a reset request takes for a known e-mail, so both answers come at the floor. */
export const RESET_ANSWER_FLOOR_MS = 250;

/** A 429 that says how long to wait, in the message and in Retry-After. */
function waitBeforeRetrying(http: HttpExchange, waitMs: number): AppError {
  http.res.set('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
  return tooManyAttempts(waitMs);
}

export function createIdentityService(deps: IdentityServiceDeps) {
  const cookieOptions = (): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.secureCookies,
    path: '/',
    maxAge: deps.sessions.ttlSeconds * 1000,
  });

  /** Refuses a try while the pair or the address must wait; otherwise counts it (login-throttle.ts). */
  async function throttled(account: string, ip: string, http: HttpExchange): Promise<void> {
    await assertNotBlocked(deps.limits.failedLoginsPerIp, ip, (ms) => waitBeforeRetrying(http, ms));
    // An account failing from many addresses is under attack: every address then waits after
    // its first failure. A new address's first try still gets through, so the owner is not
    // locked out by strangers.
    const underAttack = await isOver(deps.limits.failedLoginsPerAccount, account);
    const freeFailures = underAttack ? 1 : deps.limits.loginFreeFailures;
    const decision = await deps.limits.loginThrottle.attempt(account, ip, deps.clock.now().getTime(), freeFailures);
    if (!decision.allowed) throw waitBeforeRetrying(http, decision.waitMs);
  }

  /** A wrong password or code counts against the address and the account; other errors pass. */
  async function failed(error: unknown, account: string, ip: string, http: HttpExchange): Promise<unknown> {
    if (!(error instanceof AppError) || (error.code !== 'UNAUTHENTICATED' && error.code !== 'VALIDATION')) return error;
    const overIp = await consume(deps.limits.failedLoginsPerIp, ip);
    await consume(deps.limits.failedLoginsPerAccount, account);
    return overIp ? waitBeforeRetrying(http, overIp.msBeforeNext) : error;
  }

  async function signIn(user: { userId: string; email: string }, account: string, ip: string, http: HttpExchange): Promise<SessionOutput> {
    await deps.limits.loginThrottle.succeeded(account, ip);
    const token = await deps.sessions.create(user.userId, user.email, deps.clock.now());
    http.res.cookie(SESSION_COOKIE, token, cookieOptions());
    await recordSignIn(deps.core, user.userId);
    return { id: user.userId, email: user.email };
  }

  return {
    async register(input: RegisterInput, http: HttpExchange): Promise<SessionOutput> {
      await limitRequest(deps.limits.registrationsPerIp, clientIp(http));
      const registered = await registerUser(deps.core, input, requestLanguage(http.req));
      await deps
        .openWallet(registered.userId)
        .catch((error) => console.error('[identity] could not open the wallet of', registered.userId, error));
      return { id: registered.userId, email: registered.email };
    },

    /**
     * The password step. With two-factor on, a right password answers a challenge for the code
     * step and creates no session (ADR 040); the pair's throttle is not cleared until the code.
     */
    async login(input: LoginInput, http: HttpExchange): Promise<LoginOutput> {
      const account = normalizeEmail(input.email);
      const ip = clientIp(http);
      await throttled(account, ip, http);
      let user: { userId: string; email: string };
      try {
        user = await authenticate(deps.core, input);
      } catch (error) {
        throw await failed(error, account, ip, http);
      }
      if ((await twoFactorStatus(deps.core, user.userId)).enabled) {
        return { two_factor_required: true, challenge: makeChallenge(deps.appSecret, user.userId, deps.clock.now().getTime()) };
      }
      return signIn(user, account, ip, http);
    },

    /** The code step: a TOTP or recovery code, throttled with the same pair as passwords. */
    async loginTwoFactor(input: TwoFactorLoginInput, http: HttpExchange): Promise<SessionOutput> {
      const userId = readChallenge(deps.appSecret, input.challenge, deps.clock.now().getTime());
      const state = userId ? (await loadUser(deps.core, userId)).state : undefined;
      if (!userId || !state) throw new AppError('UNAUTHENTICATED', 'errors:twoFactorChallengeInvalid');
      const account = state.email;
      const ip = clientIp(http);
      await throttled(account, ip, http);
      try {
        await verifySecondFactor(deps.core, totpCodes, userId, { code: input.code, recoveryCode: input.recovery_code });
      } catch (error) {
        throw await failed(error, account, ip, http);
      }
      return signIn({ userId, email: state.email }, account, ip, http);
    },

    twoFactorStatus(session: Session) {
      return twoFactorStatus(deps.core, session.userId);
    },

    /** Starts an enrollment: the secret as text and as a QR code of its otpauth:// URI. */
    async startTwoFactor(session: Session) {
      const enrollment = await startTwoFactor(deps.core, totpCodes, session.userId);
      const { uri, qrSvg } = await enrollmentQr(enrollment.secret, session.email);
      return { enrollment_id: enrollment.enrollmentId, secret: enrollment.secret, otpauth_uri: uri, qr_svg: qrSvg };
    },

    async confirmTwoFactor(session: Session, input: TwoFactorConfirmInput) {
      const { recoveryCodes } = await confirmTwoFactor(deps.core, totpCodes, session.userId, {
        enrollmentId: input.enrollment_id,
        code: input.code,
      });
      return { recovery_codes: recoveryCodes };
    },

    async disableTwoFactor(session: Session, input: TwoFactorDisableInput, http: HttpExchange): Promise<{ success: true }> {
      const ip = clientIp(http);
      await throttled(session.email, ip, http);
      try {
        await disableTwoFactor(deps.core, totpCodes, session.userId, input);
      } catch (error) {
        throw await failed(error, session.email, ip, http);
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      return { success: true };
    },

    /**
     * Deletes the session's own account (ADR 042): the password (and a code when two-factor is
     * on) again, throttled like a sign-in; an empty wallet; then every session ends.
     */
    async deleteAccount(
      session: Session,
      input: AccountDeleteInput,
      http: HttpExchange,
      userId = session.userId,
    ): Promise<{ message: string }> {
      if (userId !== session.userId) throw new AppError('FORBIDDEN', 'errors:forbidden');
      const ip = clientIp(http);
      await throttled(session.email, ip, http);
      const proof = { password: input.password, code: input.code, recoveryCode: input.recovery_code };
      try {
        await deleteOwnAccount(deps.core, totpCodes, session.userId, userId, proof, deps.closeAccount);
      } catch (error) {
        // Only a wrong password or code counts as a failed try; a full wallet is not a guess.
        if (error instanceof AppError && error.code === 'CONFLICT') throw error;
        throw await failed(error, session.email, ip, http);
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      // Counters keyed by the e-mail expire on their own; the account's go now, with it.
      await deps.limits.failedLoginsPerAccount.delete(session.email);
      await deps.sessions.destroyAllFor(userId);
      http.res.clearCookie(SESSION_COOKIE, { ...cookieOptions(), maxAge: undefined });
      return { message: deps.deletedMessage(requestLanguage(http.req)) };
    },

    async logout(http: HttpExchange): Promise<{ success: true }> {
      const token = readCookie(http.req.get('cookie'), SESSION_COOKIE);
      const session = await deps.sessions.get(token);
      await deps.sessions.destroy(token);
      http.res.clearCookie(SESSION_COOKIE, { ...cookieOptions(), maxAge: undefined });
      if (session) await recordSignOut(deps.core, session.userId);
      return { success: true };
    },

    getUser(session: Session, userId: string): Promise<UserOutput> {
      return getOwnProfile(deps.core, session.userId, userId);
    },

    /**
     * One profile edit. A new password ends every other session of the user (whoever knew the
     * old one is signed out) but keeps this one, and the workers mail a notice of the change.
     * A password change asks for the current one, so it goes through the sign-in throttle with
     * the session's account and this address (ADR 038): guessing here is as slow as at /login.
     */
    async updateUser(session: Session, userId: string, input: UserUpdateInput, http: HttpExchange): Promise<UserOutput> {
      const language = requestLanguage(http.req);
      if (input.password === undefined || session.userId !== userId) {
        const updated = await updateOwnProfile(deps.core, session.userId, userId, input, language);
        return updated.profile;
      }
      const ip = clientIp(http);
      await throttled(session.email, ip, http);
      let updated: Awaited<ReturnType<typeof updateOwnProfile>>;
      try {
        updated = await updateOwnProfile(deps.core, session.userId, userId, input, language);
      } catch (error) {
        // Only a wrong current password is a failed guess; a refused new password (its policy is
        // checked only after the current one was right) clears the pair like a right password.
        if (error instanceof AppError && error.messageKey === 'errors:wrongCurrentPassword')
          throw await failed(error, session.email, ip, http);
        if (error instanceof AppError && error.fields.password !== undefined) await deps.limits.loginThrottle.succeeded(session.email, ip);
        throw error;
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      if (updated.passwordChanged) await deps.sessions.destroyOthersFor(userId, readCookie(http.req.get('cookie'), SESSION_COOKIE));
      return updated.profile;
    },

    async requestPasswordReset(input: PasswordResetRequestInput, http: HttpExchange): Promise<{ success: true }> {
      await limitRequest(deps.limits.resetRequestsPerIp, clientIp(http));
      // Known and unknown e-mails take different paths (an append, or nothing); answering no
      // sooner than a fixed floor hides which one ran.
      await Promise.all([requestPasswordReset(deps.core, input, requestLanguage(http.req)), delay(RESET_ANSWER_FLOOR_MS)]);
      return { success: true };
    },

    async confirmPasswordReset(input: PasswordResetConfirmInput): Promise<{ success: true }> {
      const link = verifyResetToken(deps.appSecret, input.token);
      if (!link) throw new AppError('VALIDATION', 'errors:invalidResetLink');
      await resetPassword(deps.core, link, input.password);
      // Whoever knew the old password must not stay signed in.
      await deps.sessions.destroyAllFor(link.userId);
      return { success: true };
    },
  };
}

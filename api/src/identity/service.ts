/**
 * The identity use cases as the api offers them: the core handlers plus what only the api
 * knows about (sessions and their cookie, rate limits by IP, reset-link MACs). tRPC and REST
 * both call this, so they cannot drift apart.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AppError, type Clock, isRefusal } from '@quern/core';
import { log } from '@quern/adapters/runtime';
import {
  deleteOwnAccount,
  authenticate,
  confirmTwoFactor,
  disableTwoFactor,
  getOwnProfile,
  loadUser,
  normalizeEmail,
  proveIdentity,
  recordSignIn,
  recordTwoFactorLock,
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
  type ReauthenticateInput,
  type PasswordResetRequestInput,
  type RegisterInput,
  type SessionOutput,
  type UserOutput,
  type UserUpdateInput,
} from '@quern/core/identity';
import {
  emailVerificationStatus,
  resendEmailVerification,
  verifyEmail,
  verifyEmailVerificationToken,
  verifyResetToken,
  type EmailVerificationStatus,
  type EmailVerifyInput,
} from '@quern/core/identity';
import type { IdentityClient, IdentityCookieOptions } from './client.js';
import { assertNotBlocked, consume, count, isOver, limitRequest, tooManyAttempts, type IdentityLimits } from './limits.js';
import { SESSION_COOKIE, type Session, type SessionStore } from './sessions.js';
import { CHALLENGE_TTL_MS, enrollmentQr, makeChallenge, newChallengeNonce, readChallenge, totpCodes } from './totp.js';

/** The httpOnly cookie binding a sign-in challenge to the client that passed the password (ADR 045). */
export const TWO_FACTOR_COOKIE = 'quern_two_factor';

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

/** How long after the password was last given a session may create keys and endpoints (ADR 045). */
export const REAUTHENTICATION_AFTER_MS = 10 * 60 * 1000;

/** Longer than a reset request takes for a known e-mail, so both answers come at the floor. */
export const RESET_ANSWER_FLOOR_MS = 250;

/** A 429 that says how long to wait, in the message and in Retry-After. */
function waitBeforeRetrying(client: IdentityClient, waitMs: number): AppError {
  client.retryAfter(Math.max(1, Math.ceil(waitMs / 1000)));
  return tooManyAttempts(waitMs);
}

export function createIdentityService(deps: IdentityServiceDeps) {
  const cookieOptions = (): IdentityCookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure: deps.secureCookies,
    path: '/',
    maxAge: deps.sessions.ttlSeconds * 1000,
  });

  /** Refuses a try while the pair or the address must wait; otherwise counts it (login-throttle.ts). */
  async function throttled(account: string, ip: string, client: IdentityClient): Promise<void> {
    await assertNotBlocked(deps.limits.failedLoginsPerIp, ip, (ms) => waitBeforeRetrying(client, ms));
    // An account failing from many addresses is under attack: every address then waits after
    // its first failure. A new address's first try still gets through, so the owner is not
    // locked out by strangers.
    const underAttack = await isOver(deps.limits.failedLoginsPerAccount, account);
    const freeFailures = underAttack ? 1 : deps.limits.loginFreeFailures;
    const decision = await deps.limits.loginThrottle.attempt(account, ip, deps.clock.now().getTime(), freeFailures);
    if (!decision.allowed) throw waitBeforeRetrying(client, decision.waitMs);
  }

  /** A wrong password or code counts against the address and the account; other errors pass. */
  async function failed(error: unknown, account: string, ip: string, client: IdentityClient): Promise<unknown> {
    if (!(error instanceof AppError) || (error.code !== 'UNAUTHENTICATED' && error.code !== 'VALIDATION')) return error;
    const overIp = await consume(deps.limits.failedLoginsPerIp, ip);
    await consume(deps.limits.failedLoginsPerAccount, account);
    return overIp ? waitBeforeRetrying(client, overIp.msBeforeNext) : error;
  }

  /** Over the account's cap of wrong codes, a code is refused unread: only a recovery code works. */
  async function assertCodesNotLocked(userId: string, client: IdentityClient): Promise<void> {
    const counted = await deps.limits.twoFactorFailuresPerAccount.get(userId);
    if (counted && counted.consumedPoints >= deps.limits.twoFactorFailuresPerAccount.points) {
      client.retryAfter(Math.max(1, Math.ceil(counted.msBeforeNext / 1000)));
      throw new AppError('RATE_LIMITED', 'errors:twoFactorLocked', {}, { minutes: Math.max(1, Math.ceil(counted.msBeforeNext / 60_000)) });
    }
  }

  /**
   * Counts a wrong code on its challenge and, for a TOTP code, on its account. The one wrong code
   * that reaches the account's cap records the lock, which mails the owner: once per lock.
   */
  async function wrongSecondFactor(challenge: { userId: string; challengeId: string }, totpCode: boolean): Promise<void> {
    await consume(deps.limits.twoFactorFailuresPerChallenge, challenge.challengeId);
    if (!totpCode) return;
    const counted = await count(deps.limits.twoFactorFailuresPerAccount, challenge.userId);
    if (counted.used === deps.limits.twoFactorFailuresPerAccount.points) {
      await recordTwoFactorLock(deps.core, challenge.userId, new Date(deps.clock.now().getTime() + counted.msBeforeNext));
    }
  }

  async function signIn(
    user: { userId: string; email: string },
    account: string,
    ip: string,
    client: IdentityClient,
  ): Promise<SessionOutput> {
    await deps.limits.loginThrottle.succeeded(account, ip);
    const token = await deps.sessions.create(user.userId, user.email, deps.clock.now());
    client.setCookie(SESSION_COOKIE, token, cookieOptions());
    await recordSignIn(deps.core, user.userId);
    return { id: user.userId, email: user.email };
  }

  return {
    async register(input: RegisterInput, client: IdentityClient): Promise<SessionOutput> {
      await limitRequest(deps.limits.registrationsPerIp, client.ip());
      const registered = await registerUser(deps.core, input, client.language());
      await deps
        .openWallet(registered.userId)
        .catch((error) =>
          log.error({ part: 'identity', userId: registered.userId, err: error }, 'could not open the wallet of a new account'),
        );
      return { id: registered.userId, email: registered.email };
    },

    /**
     * The password step. With two-factor on, a right password answers a challenge for the code
     * step and creates no session (ADR 040); the pair's throttle is not cleared until the code.
     */
    async login(input: LoginInput, client: IdentityClient): Promise<LoginOutput> {
      const account = normalizeEmail(input.email);
      const ip = client.ip();
      await throttled(account, ip, client);
      let user: { userId: string; email: string };
      try {
        user = await authenticate(deps.core, input);
      } catch (error) {
        throw await failed(error, account, ip, client);
      }
      if ((await twoFactorStatus(deps.core, user.userId)).enabled) {
        // The challenge works only with this cookie and from this address (ADR 045).
        const nonce = newChallengeNonce();
        client.setCookie(TWO_FACTOR_COOKIE, nonce, { ...cookieOptions(), maxAge: CHALLENGE_TTL_MS });
        return {
          two_factor_required: true,
          challenge: makeChallenge(deps.appSecret, user.userId, deps.clock.now().getTime(), { nonce, ip }),
        };
      }
      return signIn(user, account, ip, client);
    },

    /**
     * The code step: a TOTP or recovery code, throttled with the same pair as passwords, for the
     * client that passed the password only. A challenge is void after 5 wrong codes; wrong TOTP
     * codes from every address count against the account, and over its cap only a recovery code
     * works until the count's hour ends (ADR 045).
     */
    async loginTwoFactor(input: TwoFactorLoginInput, client: IdentityClient): Promise<SessionOutput> {
      const ip = client.ip();
      const nonce = client.cookie(TWO_FACTOR_COOKIE);
      const challenger = nonce === undefined ? undefined : { nonce, ip };
      const challenge = readChallenge(deps.appSecret, input.challenge, deps.clock.now().getTime(), challenger);
      const state = challenge ? (await loadUser(deps.core, challenge.userId)).state : undefined;
      const invalid = () => new AppError('UNAUTHENTICATED', 'errors:twoFactorChallengeInvalid');
      if (!challenge || !state) throw invalid();
      if (await isOver(deps.limits.twoFactorFailuresPerChallenge, challenge.challengeId)) throw invalid();
      const { userId } = challenge;
      const account = state.email;
      await throttled(account, ip, client);
      if (input.code !== undefined) await assertCodesNotLocked(userId, client);
      try {
        await verifySecondFactor(deps.core, totpCodes, userId, { code: input.code, recoveryCode: input.recovery_code });
      } catch (error) {
        if (error instanceof AppError && error.code === 'VALIDATION') await wrongSecondFactor(challenge, input.code !== undefined);
        throw await failed(error, account, ip, client);
      }
      const session = await signIn({ userId, email: state.email }, account, ip, client);
      // After the session's cookie, so clients that read the first Set-Cookie still find the session.
      client.clearCookie(TWO_FACTOR_COOKIE, { ...cookieOptions(), maxAge: undefined });
      return session;
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

    async disableTwoFactor(session: Session, input: TwoFactorDisableInput, client: IdentityClient): Promise<{ success: true }> {
      const ip = client.ip();
      await throttled(session.email, ip, client);
      try {
        await disableTwoFactor(deps.core, totpCodes, session.userId, input);
      } catch (error) {
        throw await failed(error, session.email, ip, client);
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
      client: IdentityClient,
      userId = session.userId,
    ): Promise<{ message: string }> {
      if (userId !== session.userId) throw new AppError('FORBIDDEN', 'errors:forbidden');
      const ip = client.ip();
      await throttled(session.email, ip, client);
      const proof = { password: input.password, code: input.code, recoveryCode: input.recovery_code };
      try {
        await deleteOwnAccount(deps.core, totpCodes, session.userId, userId, proof, deps.closeAccount);
      } catch (error) {
        // Only a wrong password or code counts as a failed try; a full wallet is not a guess.
        if (error instanceof AppError && error.code === 'CONFLICT') throw error;
        throw await failed(error, session.email, ip, client);
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      // Counters keyed by the e-mail expire on their own; the account's go now, with it.
      await deps.limits.failedLoginsPerAccount.delete(session.email);
      await deps.sessions.destroyAllFor(userId);
      client.clearCookie(SESSION_COOKIE, { ...cookieOptions(), maxAge: undefined });
      return { message: deps.deletedMessage(client.language()) };
    },

    /**
     * Step-up re-authentication (ADR 045): the password (or a fresh code when two-factor is on)
     * again, throttled like a sign-in with the session's account and this address; then this
     * session counts as freshly authenticated for REAUTHENTICATION_AFTER_MS.
     */
    async reauthenticate(session: Session, input: ReauthenticateInput, client: IdentityClient): Promise<{ success: true }> {
      const ip = client.ip();
      await throttled(session.email, ip, client);
      try {
        await proveIdentity(deps.core, totpCodes, session.userId, input);
      } catch (error) {
        throw await failed(error, session.email, ip, client);
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      await deps.sessions.markAuthenticated(client.cookie(SESSION_COOKIE), deps.clock.now());
      return { success: true };
    },

    /**
     * Refuses, with a typed REAUTHENTICATION_REQUIRED, a call that needs a recent proof of the
     * password (creating or deleting an API key, adding a webhook endpoint) when this session's is
     * older than REAUTHENTICATION_AFTER_MS: a borrowed or stolen session alone cannot.
     */
    requireRecentAuthentication(session: Session): void {
      const provedAt = Date.parse(session.authenticatedAt ?? session.createdAt);
      if (!(deps.clock.now().getTime() - provedAt <= REAUTHENTICATION_AFTER_MS)) {
        throw new AppError('REAUTHENTICATION_REQUIRED', 'errors:reauthenticationRequired');
      }
    },

    async logout(client: IdentityClient): Promise<{ success: true }> {
      const token = client.cookie(SESSION_COOKIE);
      const session = await deps.sessions.get(token);
      await deps.sessions.destroy(token);
      client.clearCookie(SESSION_COOKIE, { ...cookieOptions(), maxAge: undefined });
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
    async updateUser(session: Session, userId: string, input: UserUpdateInput, client: IdentityClient): Promise<UserOutput> {
      const language = client.language();
      if (input.password === undefined || session.userId !== userId) {
        const updated = await updateOwnProfile(deps.core, session.userId, userId, input, language);
        return updated.profile;
      }
      const ip = client.ip();
      await throttled(session.email, ip, client);
      let updated: Awaited<ReturnType<typeof updateOwnProfile>>;
      try {
        updated = await updateOwnProfile(deps.core, session.userId, userId, input, language);
      } catch (error) {
        // Only a wrong current password is a failed guess; a refused new password (its policy is
        // checked only after the current one was right) clears the pair like a right password.
        if (isRefusal(error, 'wrongCurrentPassword')) throw await failed(error, session.email, ip, client);
        if (error instanceof AppError && error.fields.password !== undefined) await deps.limits.loginThrottle.succeeded(session.email, ip);
        throw error;
      }
      await deps.limits.loginThrottle.succeeded(session.email, ip);
      if (updated.passwordChanged) await deps.sessions.destroyOthersFor(userId, client.cookie(SESSION_COOKIE));
      return updated.profile;
    },

    async requestPasswordReset(input: PasswordResetRequestInput, client: IdentityClient): Promise<{ success: true }> {
      await limitRequest(deps.limits.resetRequestsPerIp, client.ip());
      // Known and unknown e-mails take different paths (an append, or nothing); answering no
      // sooner than a fixed floor hides which one ran.
      await Promise.all([requestPasswordReset(deps.core, input, client.language()), delay(RESET_ANSWER_FLOOR_MS)]);
      return { success: true };
    },

    /** Whether the session's e-mail address is proven (the dashboard's notice asks). */
    emailVerification(session: Session): Promise<EmailVerificationStatus> {
      return emailVerificationStatus(deps.core, session.userId);
    },

    /** Another verification mail for the session's account; 429 past the hourly limit (ADR 046). */
    async resendEmailVerification(session: Session, client: IdentityClient): Promise<EmailVerificationStatus> {
      return resendEmailVerification(deps.core, session.userId, client.language());
    },

    /** The verification link opened: its MAC checked here, its single use and expiry against the log. */
    async verifyEmail(input: EmailVerifyInput): Promise<{ success: true }> {
      const link = verifyEmailVerificationToken(deps.appSecret, input.token);
      if (!link) throw new AppError('VALIDATION', 'errors:invalidVerificationLink');
      await verifyEmail(deps.core, link);
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

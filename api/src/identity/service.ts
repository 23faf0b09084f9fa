/**
 * The identity use cases as the api offers them: the core handlers plus what only the api
 * knows about (sessions and their cookie, rate limits by IP, reset-link MACs). tRPC and REST
 * both call this, so they cannot drift apart.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { CookieOptions } from 'express';
import { AppError, type Clock } from '@quern/core';
import {
  authenticate,
  getOwnProfile,
  normalizeEmail,
  recordSignIn,
  recordSignOut,
  registerUser,
  requestPasswordReset,
  resetPassword,
  updateOwnProfile,
  type IdentityDeps,
  type LoginInput,
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

export interface IdentityServiceDeps {
  core: IdentityDeps;
  sessions: SessionStore;
  limits: IdentityLimits;
  clock: Clock;
  appSecret: string;
  secureCookies: boolean;
  /** Opens the new user's wallet; a failure here is repaired by the wallet's lazy open. */
  openWallet: (userId: string) => Promise<unknown>;
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

  return {
    async register(input: RegisterInput, http: HttpExchange): Promise<SessionOutput> {
      await limitRequest(deps.limits.registrationsPerIp, clientIp(http));
      const registered = await registerUser(deps.core, input, requestLanguage(http.req));
      await deps
        .openWallet(registered.userId)
        .catch((error) => console.error('[identity] could not open the wallet of', registered.userId, error));
      return { id: registered.userId, email: registered.email };
    },

    async login(input: LoginInput, http: HttpExchange): Promise<SessionOutput> {
      const account = normalizeEmail(input.email);
      const ip = clientIp(http);
      await assertNotBlocked(deps.limits.failedLoginsPerIp, ip, (ms) => waitBeforeRetrying(http, ms));
      // An account failing from many addresses is under attack: every address then waits after
      // its first failure. A new address's first try still gets through, so the owner is not
      // locked out by strangers.
      const underAttack = await isOver(deps.limits.failedLoginsPerAccount, account);
      const freeFailures = underAttack ? 1 : deps.limits.loginFreeFailures;
      const decision = await deps.limits.loginThrottle.attempt(account, ip, deps.clock.now().getTime(), freeFailures);
      if (!decision.allowed) throw waitBeforeRetrying(http, decision.waitMs);
      let user: { userId: string; email: string };
      try {
        user = await authenticate(deps.core, input);
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'UNAUTHENTICATED') throw error;
        const overIp = await consume(deps.limits.failedLoginsPerIp, ip);
        await consume(deps.limits.failedLoginsPerAccount, account);
        throw overIp ? waitBeforeRetrying(http, overIp.msBeforeNext) : error;
      }
      await deps.limits.loginThrottle.succeeded(account, ip);
      const token = await deps.sessions.create(user.userId, user.email, deps.clock.now());
      http.res.cookie(SESSION_COOKIE, token, cookieOptions());
      await recordSignIn(deps.core, user.userId);
      return { id: user.userId, email: user.email };
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
     */
    async updateUser(session: Session, userId: string, input: UserUpdateInput, http: HttpExchange): Promise<UserOutput> {
      const updated = await updateOwnProfile(deps.core, session.userId, userId, input, requestLanguage(http.req));
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

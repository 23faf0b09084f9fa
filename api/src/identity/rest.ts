/** The spec's identity calls (section 7), at their exact paths. */
import { Router } from 'express';
import { AppError } from '@quern/core';
import {
  accountDeleteInput,
  emailVerifyInput,
  loginInput,
  passwordResetConfirmInput,
  passwordResetRequestInput,
  registerInput,
  twoFactorConfirmInput,
  twoFactorDisableInput,
  reauthenticateInput,
  twoFactorLoginInput,
  userIdParam,
  userUpdateInput,
} from '@quern/core/identity';
import { z } from 'zod';
import { identityClientOf } from '../http/identity-client.js';
import { restRoute, type ContextFactory } from '../http/rest.js';
import type { Session } from './sessions.js';

const requireSession = async (getSession: () => Promise<Session | undefined>) => {
  const session = await getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return session;
};

export function identityRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.post(
    '/api/user/register',
    restRoute(createContext, registerInput, (ctx, input) => ctx.identity.register(input, identityClientOf(ctx.http))),
  );
  routes.post(
    '/api/user/login',
    restRoute(createContext, loginInput, (ctx, input) => ctx.identity.login(input, identityClientOf(ctx.http))),
  );
  routes.post(
    '/api/user/login/two-factor',
    restRoute(createContext, twoFactorLoginInput, (ctx, input) => ctx.identity.loginTwoFactor(input, identityClientOf(ctx.http))),
  );
  // The profile's two-factor calls (ADR 040); the session is checked before the body.
  routes.post(
    '/api/user/two-factor/status',
    restRoute(createContext, null, async (ctx) => ctx.identity.twoFactorStatus(await requireSession(ctx.getSession))),
  );
  routes.post(
    '/api/user/two-factor/start',
    restRoute(createContext, null, async (ctx) => ctx.identity.startTwoFactor(await requireSession(ctx.getSession))),
  );
  routes.post(
    '/api/user/two-factor/confirm',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      return ctx.identity.confirmTwoFactor(session, twoFactorConfirmInput.parse(ctx.http.req.body ?? {}));
    }),
  );
  // Step-up re-authentication (ADR 045): the password, or a code, again before keys and endpoints.
  routes.post(
    '/api/user/reauthenticate',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      return ctx.identity.reauthenticate(session, reauthenticateInput.parse(ctx.http.req.body ?? {}), identityClientOf(ctx.http));
    }),
  );
  routes.post(
    '/api/user/two-factor/disable',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      return ctx.identity.disableTwoFactor(session, twoFactorDisableInput.parse(ctx.http.req.body ?? {}), identityClientOf(ctx.http));
    }),
  );
  routes.post(
    '/api/auth/verify',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      return { id: session.userId, email: session.email };
    }),
  );
  routes.post(
    '/api/user/logout',
    restRoute(createContext, null, (ctx) => ctx.identity.logout(identityClientOf(ctx.http))),
  );
  routes.post(
    '/api/user/get/:id',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      const id = z.object({ id: userIdParam }).parse(ctx.http.req.params).id;
      return ctx.identity.getUser(session, id);
    }),
  );
  routes.post(
    '/api/user/update/:id',
    // The session is checked before the body, so a visitor never gets a validation answer.
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      const id = z.object({ id: userIdParam }).parse(ctx.http.req.params).id;
      return ctx.identity.updateUser(session, id, userUpdateInput.parse(ctx.http.req.body ?? {}), identityClientOf(ctx.http));
    }),
  );
  // Deleting one's own account (ADR 042), beside update/{id}: only for the session's own id.
  routes.post(
    '/api/user/delete/:id',
    restRoute(createContext, null, async (ctx) => {
      const session = await requireSession(ctx.getSession);
      const id = z.object({ id: userIdParam }).parse(ctx.http.req.params).id;
      return ctx.identity.deleteAccount(session, accountDeleteInput.parse(ctx.http.req.body ?? {}), identityClientOf(ctx.http), id);
    }),
  );
  routes.post(
    '/api/user/password/reset',
    restRoute(createContext, passwordResetRequestInput, (ctx, input) =>
      ctx.identity.requestPasswordReset(input, identityClientOf(ctx.http)),
    ),
  );
  routes.post(
    ['/api/user/password/reset-verify', '/api/user/password/reset-verify/'],
    restRoute(createContext, passwordResetConfirmInput, (ctx, input) => ctx.identity.confirmPasswordReset(input)),
  );
  // E-mail verification (ADR 046): the link's token, the session's status, another mail.
  routes.post(
    '/api/user/email/verify',
    restRoute(createContext, emailVerifyInput, (ctx, input) => ctx.identity.verifyEmail(input)),
  );
  routes.post(
    '/api/user/email/status',
    restRoute(createContext, null, async (ctx) => ctx.identity.emailVerification(await requireSession(ctx.getSession))),
  );
  routes.post(
    '/api/user/email/resend',
    restRoute(createContext, null, async (ctx) =>
      ctx.identity.resendEmailVerification(await requireSession(ctx.getSession), identityClientOf(ctx.http)),
    ),
  );
  return routes;
}

/**
 * The spec's checkout call (section 7): `POST /api/quern/checkout` with cart, price, currency and
 * to. Both outcomes of a well-formed payment answer 200, and the body's `success` (and `code`
 * 4001 when MLX is short) says which (ADR 029); refusals (bad cart, unknown merchant, paying
 * oneself) are ordinary errors with their 4xx status and message.
 */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { checkoutInput } from '@quern/core/checkout';
import type { RequestContext } from '../http/context.js';
import { type ContextFactory, restRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';

async function sessionOf(ctx: RequestContext): Promise<Session> {
  const session = await ctx.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return session;
}

export function checkoutRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  // The session is checked before the input is read: a visitor gets 401, never a validation
  // answer about a call they may not make (as every other signed-in call).
  routes.post(
    '/api/quern/checkout',
    restRoute(createContext, null, async (ctx) => {
      const session = await sessionOf(ctx);
      return ctx.checkout.pay(session, checkoutInput.parse(ctx.http.req.body ?? {}), ctx.language);
    }),
  );
  return routes;
}

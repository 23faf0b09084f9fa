/**
 * The spec's API Direct calls (section 7) at their exact paths, with the session cookie (and the
 * CSRF rules every call has), and the integrator API (/api/v1) with a bearer key: `GET /api/v1/me`
 * and the order verification calls (ADR 031).
 */
import { Router } from 'express';
import { merchantOrderQuery, merchantOrderVerifyInput } from '@quern/core/checkout';
import type { RequestContext } from '../http/context.js';
import { type ContextFactory, authedRoute, restRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';
import { apiKeyAuth, merchantOf } from './bearer.js';
import type { DirectService } from './service.js';

export function directRestRoutes(createContext: ContextFactory, direct: DirectService): Router {
  const routes = Router();
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);
  routes.post(
    '/api/direct/key-get',
    authed((ctx, session) => ctx.direct.keyGet(session)),
  );
  routes.post(
    '/api/direct/key-generate',
    authed((ctx, session) => ctx.direct.keyGenerate(session, ctx.language)),
  );
  routes.post(
    '/api/direct/key-delete',
    authed((ctx, session) => ctx.direct.keyDelete(session, ctx.language)),
  );
  routes.get(
    '/api/v1/me',
    apiKeyAuth(direct),
    restRoute(createContext, null, (ctx) => ctx.direct.me(merchantOf(ctx.http.res))),
  );
  // ADR 031: a merchant's server verifies a paid order, by id (optionally with its token) or by token.
  routes.get(
    '/api/v1/orders/:order',
    apiKeyAuth(direct),
    restRoute(createContext, merchantOrderQuery, (ctx, input) =>
      ctx.checkout.merchantOrder(merchantOf(ctx.http.res).userId, String(ctx.http.req.params.order), input.token),
    ),
  );
  routes.post(
    '/api/v1/orders/verify',
    apiKeyAuth(direct),
    restRoute(createContext, merchantOrderVerifyInput, (ctx, input) =>
      ctx.checkout.verifyToken(merchantOf(ctx.http.res).userId, input.token),
    ),
  );
  return routes;
}

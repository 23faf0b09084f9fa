/**
 * The spec's checkout call (section 7): `POST /api/quern/checkout` with cart, price, currency and
 * to. Both outcomes of a well-formed payment answer 200, and the body's `success` (and `code`
 * 4001 when MLX is short) says which (ADR 029); refusals (bad cart, unknown merchant, paying
 * oneself) are ordinary errors with their 4xx status and message.
 */
import { Router } from 'express';
import { checkoutInput } from '@quern/core/checkout';
import { type ContextFactory, authedRoute } from '../http/rest.js';

export function checkoutRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  routes.post(
    '/api/quern/checkout',
    authedRoute(createContext, (ctx, session) => ctx.checkout.pay(session, checkoutInput.parse(ctx.http.req.body ?? {}), ctx.language)),
  );
  return routes;
}

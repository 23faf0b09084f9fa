/**
 * The subscription calls: the spec's `POST /api/subscriptions/create` (section 7) and Quern's
 * cancel, resume (ADR 059), list and read beside it, and price consent (accept a higher price; the provider's end
 * for an unaccepted one, ADR 044), for signed-in callers, with the same schemas as tRPC.
 */
import { acceptPriceInput, subscribeInput, subscriptionIdInput } from '@quern/core/subscriptions';
import { Router } from 'express';
import { listPageInput, listPageQuery } from '@quern/core/plans';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { type ContextFactory, authedRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';

export function subscriptionRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);
  const body = (ctx: RequestContext) => ctx.http.req.body ?? {};

  routes.post(
    '/api/subscriptions/create',
    authed((ctx, session) => ctx.subscriptions.create(session.userId, subscribeInput.parse(body(ctx)), ctx.language)),
  );
  routes.post(
    '/api/subscriptions/cancel',
    authed((ctx, session) => ctx.subscriptions.cancel(session.userId, subscriptionIdInput.parse(body(ctx)).id, ctx.language)),
  );
  routes.post(
    '/api/subscriptions/resume',
    authed((ctx, session) => ctx.subscriptions.resume(session.userId, subscriptionIdInput.parse(body(ctx)).id, ctx.language)),
  );
  routes.post(
    '/api/subscriptions/accept-price',
    authed((ctx, session) => ctx.subscriptions.acceptPrice(session.userId, acceptPriceInput.parse(body(ctx)), ctx.language)),
  );
  routes.post(
    '/api/subscriptions/end-for-price',
    authed((ctx, session) => ctx.subscriptions.endForPrice(session.userId, subscriptionIdInput.parse(body(ctx)).id, ctx.language)),
  );
  routes.post(
    '/api/subscriptions/quote',
    authed((ctx, session) =>
      ctx.subscriptions.quote(
        session.userId,
        z.strictObject({ subscription_plan_id: subscribeInput.shape.subscription_plan_id }).parse(body(ctx)).subscription_plan_id,
      ),
    ),
  );
  for (const method of ['get', 'post'] as const)
    routes[method](
      '/api/subscriptions/all',
      // GET takes the page in the query string, POST in the body (ADR 057).
      authed((ctx, session) =>
        ctx.subscriptions.mine(session.userId, method === 'get' ? listPageQuery.parse(ctx.http.req.query) : listPageInput.parse(body(ctx))),
      ),
    );
  routes.post(
    '/api/subscriptions',
    authed((ctx, session) => ctx.subscriptions.get(session.userId, subscriptionIdInput.parse(body(ctx)).id)),
  );
  routes.get(
    '/api/subscriptions/:id',
    authed((ctx, session) => ctx.subscriptions.get(session.userId, subscriptionIdInput.parse(ctx.http.req.params).id)),
  );
  return routes;
}

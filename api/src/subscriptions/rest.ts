/**
 * The subscription calls: the spec's `POST /api/subscriptions/create` (section 7) and Quern's
 * cancel, list and read beside it, for signed-in callers, with the same schemas as tRPC.
 */
import { subscribeInput, subscriptionIdInput } from '@quern/core/subscriptions';
import { Router } from 'express';
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
      authed((ctx, session) => ctx.subscriptions.mine(session.userId)),
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

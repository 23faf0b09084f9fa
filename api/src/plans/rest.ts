/**
 * The spec's plan calls (section 7) at their exact paths, for signed-in callers: the session is
 * checked before the body is read, then the body is parsed with the same schema as tRPC's.
 * `GET /api/user/username/{username}` answers a user's public name for their profile page.
 */
import { listPageInput, planCreateInput, planIdInput, planSubscribersInput, planUpdateInput, userPlansQuery } from '@quern/core/plans';
import { Router } from 'express';
import type { ZodType } from 'zod';
import type { RequestContext } from '../http/context.js';
import { type ContextFactory, authedRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';

export function planRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  const withBody =
    <I, O>(schema: ZodType<I>, handler: (ctx: RequestContext, session: Session, input: I) => Promise<O>) =>
    (ctx: RequestContext, session: Session) =>
      handler(ctx, session, schema.parse(ctx.http.req.body ?? {}));
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);

  routes.post(
    '/api/subscription-plans/create',
    authed(withBody(planCreateInput, (ctx, session, input) => ctx.plans.create(session.userId, input, ctx.language))),
  );
  routes.post('/api/subscription-plans', authed(withBody(planIdInput, (ctx, _session, input) => ctx.plans.get(input.id))));
  routes.post('/api/subscription-plans/all', authed(withBody(listPageInput, (ctx, session, page) => ctx.plans.mine(session.userId, page))));
  routes.get(
    '/api/subscription-plans/all',
    authed((ctx) => {
      const query = userPlansQuery.parse(ctx.http.req.query);
      return ctx.plans.ofUser(query.user_id, query);
    }),
  );
  routes.post(
    '/api/subscription-plans/update',
    authed(withBody(planUpdateInput, (ctx, session, input) => ctx.plans.update(session.userId, input, ctx.language))),
  );
  routes.post(
    '/api/subscription-plans/delete',
    authed(withBody(planIdInput, (ctx, session, input) => ctx.plans.delete(session.userId, input.id, ctx.language))),
  );
  routes.post(
    '/api/subscription-plans/subscribers',
    authed(withBody(planSubscribersInput, (ctx, session, input) => ctx.plans.subscribers(session.userId, input.id, input))),
  );
  routes.get(
    '/api/user/username/:username',
    authed((ctx) => ctx.plans.profile(String(ctx.http.req.params.username ?? ''))),
  );
  return routes;
}

/**
 * The spec's API Direct calls (section 7) at their exact paths, with the session cookie (and the
 * CSRF rules every call has). Generating and deleting the key need the password given within the
 * last 10 minutes (step-up, ADR 045): older sessions are refused with REAUTHENTICATION_REQUIRED. The integrator API (/api/v1) is the route table in v1/table.ts.
 */
import { Router } from 'express';
import type { RequestContext } from '../http/context.js';
import { type ContextFactory, authedRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';

export function merchantKeysRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);
  routes.post(
    '/api/direct/key-get',
    authed((ctx, session) => ctx.merchantKeys.keyGet(session)),
  );
  routes.post(
    '/api/direct/key-generate',
    authed(async (ctx, session) => {
      ctx.identity.requireRecentAuthentication(session);
      return ctx.merchantKeys.keyGenerate(session, ctx.language);
    }),
  );
  routes.post(
    '/api/direct/key-delete',
    authed(async (ctx, session) => {
      ctx.identity.requireRecentAuthentication(session);
      return ctx.merchantKeys.keyDelete(session, ctx.language);
    }),
  );
  return routes;
}

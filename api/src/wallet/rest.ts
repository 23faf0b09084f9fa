/** The spec's wallet calls (section 7), at their exact paths, plus POST send for integrations. */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { IDEMPOTENCY_KEY_PATTERN, sendInput, transactionsPageQuery } from '@quern/core/wallet';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { csrfGuard } from '../http/csrf.js';
import { restRoute, type ContextFactory } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';
import { retryAfterSecondsOf } from './send-admission.js';

async function sessionOf(ctx: RequestContext) {
  const session = await ctx.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return session;
}

function idempotencyKeyOf(ctx: RequestContext): string | undefined {
  const key = ctx.http.req.get('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new AppError('VALIDATION', 'errors:invalidRequest', { 'Idempotency-Key': 'errors:invalidRequest' });
  return key;
}

const addressParam = z.object({ address: z.string().min(1).max(200) });

export function walletRestRoutes(createContext: ContextFactory, allowedOrigins: ReadonlySet<string>): Router {
  const routes = Router();

  // Every call checks the session before it reads the input: a visitor gets 401, never a
  // validation answer about a call they may not make.
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) =>
    restRoute(createContext, null, async (ctx) => handler(ctx, await sessionOf(ctx)));
  const query = (ctx: RequestContext) => ctx.http.req.query;
  const body = (ctx: RequestContext) => ctx.http.req.body ?? {};
  // A refused send says when to come back (429 + Retry-After): back-pressure and the cap on open reservations.
  const send = async (ctx: RequestContext, session: Session, input: unknown) => {
    try {
      return await ctx.wallet.send(session, sendInput.parse(input), idempotencyKeyOf(ctx));
    } catch (error) {
      const retryAfterSeconds = retryAfterSecondsOf(error);
      if (retryAfterSeconds !== undefined) ctx.http.res.set('Retry-After', String(retryAfterSeconds));
      throw error;
    }
  };

  routes.get(
    '/api/millix/address',
    authed((ctx, session) => ctx.wallet.address(session)),
  );
  routes.get(
    '/api/millix/balance/:address',
    authed((ctx, session) => ctx.wallet.balance(session, addressParam.parse(ctx.http.req.params).address)),
  );
  routes.get(
    '/api/millix/current-rate',
    restRoute(createContext, null, (ctx) => ctx.wallet.rate()),
  );
  routes.get(
    '/api/quern/pending-transactions',
    authed((ctx, session) => ctx.wallet.pending(session)),
  );
  routes.get(
    '/api/quern/transactions',
    authed((ctx, session) => ctx.wallet.transactions(session, transactionsPageQuery.parse(query(ctx)).page)),
  );
  // The spec's send is a GET that moves money: it gets the same cross-site refusal as a POST.
  routes.get(
    '/api/millix/send',
    csrfGuard(allowedOrigins, { alsoSafeMethods: true }),
    authed((ctx, session) => send(ctx, session, query(ctx))),
  );
  routes.post(
    '/api/millix/send',
    authed((ctx, session) => send(ctx, session, body(ctx))),
  );
  return routes;
}

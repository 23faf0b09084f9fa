/** The spec's wallet calls (section 7), at their exact paths, plus POST send for integrations. */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { IDEMPOTENCY_KEY_PATTERN, sendInput } from '@quern/core/wallet';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { assertSameOriginScript } from '../http/csrf.js';
import { type ContextFactory, authedRoute, restRoute } from '../http/rest.js';
import type { Session } from '../identity/sessions.js';
import { transactionsRestQuery } from '@quern/core/history';

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
  const authed = <O>(handler: (ctx: RequestContext, session: Session) => Promise<O>) => authedRoute(createContext, handler);
  const query = (ctx: RequestContext) => ctx.http.req.query;
  const body = (ctx: RequestContext) => ctx.http.req.body ?? {};
  // A refused send (back-pressure, the cap on open reservations) gets its Retry-After from the one error table.
  const send = (ctx: RequestContext, session: Session, input: unknown) =>
    ctx.wallet.send(session, sendInput.parse(input), idempotencyKeyOf(ctx));

  routes.get(
    '/api/millix/address',
    authed((ctx, session) => ctx.wallet.address(session)),
  );
  routes.get(
    '/api/millix/balance/:address',
    // The spec's contract is stable and unstable alone; the web app's pending split stays on tRPC.
    authed(async (ctx, session) => {
      const { stable, unstable } = await ctx.wallet.balance(session, addressParam.parse(ctx.http.req.params).address);
      return { stable, unstable };
    }),
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
    authed((ctx, session) => {
      // Optional filters (issue 25) as query parameters; without them the answer is the spec's.
      const { page, filter } = transactionsRestQuery.parse(query(ctx));
      return ctx.wallet.transactions(session, page, filter);
    }),
  );
  // The spec's send is a GET that moves money. Unlike a POST, a GET can be fired by a link, an
  // image, a frame or a redirect, from another site or from a Quern page (the checkout's "Back to
  // shop" link), so it answers only a script's request (X-Requested-With, Fetch Metadata of a
  // fetch) with a positive same-origin signal (ADR 043).
  routes.get(
    '/api/millix/send',
    authed((ctx, session) => {
      assertSameOriginScript(ctx.http.req, allowedOrigins);
      return send(ctx, session, query(ctx));
    }),
  );
  routes.post(
    '/api/millix/send',
    authed((ctx, session) => send(ctx, session, body(ctx))),
  );
  return routes;
}

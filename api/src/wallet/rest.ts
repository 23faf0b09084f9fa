/** The spec's wallet calls (section 7), at their exact paths, plus POST send for integrations. */
import { Router } from 'express';
import { AppError } from '@quern/core';
import { IDEMPOTENCY_KEY_PATTERN, sendInput, transactionsPageQuery } from '@quern/core/wallet';
import { z } from 'zod';
import type { RequestContext } from '../http/context.js';
import { csrfGuard } from '../http/csrf.js';
import { restRoute, type ContextFactory } from '../http/rest.js';

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
  const run = <I, O>(schema: z.ZodType<I> | null, handler: (ctx: RequestContext, input: I) => Promise<O>) =>
    restRoute(createContext, schema, handler);

  routes.get(
    '/api/millix/address',
    run(null, async (ctx) => ctx.wallet.address(await sessionOf(ctx))),
  );
  routes.get(
    '/api/millix/balance/:address',
    run(null, async (ctx) => ctx.wallet.balance(await sessionOf(ctx), addressParam.parse(ctx.http.req.params).address)),
  );
  routes.get(
    '/api/millix/current-rate',
    run(null, async (ctx) => ctx.wallet.rate()),
  );
  routes.get(
    '/api/quern/pending-transactions',
    run(null, async (ctx) => ctx.wallet.pending(await sessionOf(ctx))),
  );
  routes.get(
    '/api/quern/transactions',
    run(transactionsPageQuery, async (ctx, input) => ctx.wallet.transactions(await sessionOf(ctx), input.page)),
  );
  // The spec's send is a GET that moves money: it gets the same cross-site refusal as a POST.
  routes.get(
    '/api/millix/send',
    csrfGuard(allowedOrigins, { alsoSafeMethods: true }),
    run(sendInput, async (ctx, input) => ctx.wallet.send(await sessionOf(ctx), input, idempotencyKeyOf(ctx))),
  );
  routes.post(
    '/api/millix/send',
    run(sendInput, async (ctx, input) => ctx.wallet.send(await sessionOf(ctx), input, idempotencyKeyOf(ctx))),
  );
  return routes;
}

/** Wallet procedures for the web app; each is a thin call into the wallet service. */
import { IDEMPOTENCY_KEY_PATTERN, sendInput, transactionsPageQuery } from '@quern/core/wallet';
import { z } from 'zod';
import { authedProcedure, router } from '../trpc/init.js';

const sendWithKey = sendInput.extend({
  idempotencyKey: z.string().regex(IDEMPOTENCY_KEY_PATTERN, { error: 'errors:invalidRequest' }).optional(),
});

export const walletRouter = router({
  address: authedProcedure.query(({ ctx }) => ctx.wallet.address(ctx.session)),
  balance: authedProcedure.query(({ ctx }) => ctx.wallet.balance(ctx.session)),
  rate: authedProcedure.query(({ ctx }) => ctx.wallet.rate()),
  pending: authedProcedure.query(({ ctx }) => ctx.wallet.pending(ctx.session)),
  transactions: authedProcedure.input(transactionsPageQuery).query(({ ctx, input }) => ctx.wallet.transactions(ctx.session, input.page)),
  send: authedProcedure.input(sendWithKey).mutation(({ ctx, input }) => ctx.wallet.send(ctx.session, input, input.idempotencyKey)),
});

/** The payments page's procedure: one page of the signed-in merchant's payments, by cursor. */
import { paymentsListInput, paymentsListOutput } from '@quern/core/payments';
import { authedProcedure, router } from '../trpc/init.js';

export const paymentsRouter = router({
  list: authedProcedure
    .input(paymentsListInput)
    .output(paymentsListOutput)
    .query(({ ctx, input }) => ctx.payments.list(ctx.session.userId, { limit: input.limit, startingAfter: input.cursor })),
});

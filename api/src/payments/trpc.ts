/** The payments page's procedures: one page of the signed-in merchant's payments, by cursor; the balance at the end of a day. */
import { balanceAtDayInput, balanceAtDayOutput } from '@quern/core/as-of';
import { paymentsListInput, paymentsListOutput } from '@quern/core/payments';
import { authedProcedure, router } from '../trpc/init.js';

export const paymentsRouter = router({
  list: authedProcedure
    .input(paymentsListInput)
    .output(paymentsListOutput)
    .query(({ ctx, input }) => ctx.payments.list(ctx.session.userId, { limit: input.limit, startingAfter: input.cursor })),
  balanceAsOf: authedProcedure
    .input(balanceAtDayInput)
    .output(balanceAtDayOutput)
    .query(({ ctx, input }) => ctx.payments.balanceAtDay(ctx.session.userId, input.day)),
});

/** The receipt page's procedure: one receipt of the signed-in user's own transactions (ADR 091). */
import { receiptByIdInput, receiptOutput } from '@quern/core/receipts';
import { authedProcedure, router } from '../trpc/init.js';

export const receiptsRouter = router({
  byId: authedProcedure
    .input(receiptByIdInput)
    .output(receiptOutput)
    .query(({ ctx, input }) => ctx.receipts.byId(ctx.session.userId, input.id)),
});

/** Refund procedures for the web's merchant payments page (session auth); a thin call into the refund service. */
import { refundCreateTrpcInput, refundOutput } from '@quern/core/refunds';
import { authedProcedure, router } from '../trpc/init.js';

export const refundsRouter = router({
  create: authedProcedure
    .input(refundCreateTrpcInput)
    .output(refundOutput)
    .mutation(({ ctx, input }) => {
      const { idempotencyKey, ...body } = input;
      return ctx.refunds.create(ctx.session.userId, idempotencyKey, body);
    }),
});

/** Purchase procedures for the web's Buy screen; each is a thin call into the purchase service. */
import {
  buySetupOutput,
  captureOrderInput,
  captureOrderOutput,
  createOrderInput,
  createOrderOutput,
  creditPurchaseInput,
  creditPurchaseOutput,
  purchaseStatusInput,
  purchaseStatusOutput,
  reserveBalanceOutput,
} from '@quern/core/purchases';
import { authedProcedure, router } from '../trpc/init.js';

export const purchasesRouter = router({
  setup: authedProcedure.output(buySetupOutput).query(({ ctx }) => ctx.purchases.setup()),
  reserveBalance: authedProcedure.output(reserveBalanceOutput).query(({ ctx }) => ctx.purchases.reserveBalance()),
  createOrder: authedProcedure
    .input(createOrderInput)
    .output(createOrderOutput)
    .mutation(({ ctx, input }) => ctx.purchases.createOrder(ctx.session, input.usd, undefined, ctx.language)),
  capture: authedProcedure
    .input(captureOrderInput)
    .output(captureOrderOutput)
    .mutation(({ ctx, input }) => ctx.purchases.capture(ctx.session, input.orderId)),
  credit: authedProcedure
    .input(creditPurchaseInput)
    .output(creditPurchaseOutput)
    .mutation(({ ctx, input }) => ctx.purchases.credit(ctx.session, input)),
  status: authedProcedure
    .input(purchaseStatusInput)
    .output(purchaseStatusOutput)
    .query(({ ctx, input }) => ctx.purchases.status(ctx.session, input.orderId)),
});

/** Checkout procedures for the web's checkout popup; each is a thin call into the checkout service. */
import { checkoutInput, checkoutMerchantInput, checkoutMerchantOutput, checkoutPayOutput } from '@quern/core/checkout';
import { clientAddressForLimits } from '../http/client-address.js';
import { authedProcedure, router } from '../trpc/init.js';

export const checkoutRouter = router({
  pay: authedProcedure
    .input(checkoutInput)
    .output(checkoutPayOutput)
    .mutation(({ ctx, input }) => ctx.checkout.pay(ctx.session, input, ctx.language)),
  merchant: authedProcedure
    .input(checkoutMerchantInput)
    .output(checkoutMerchantOutput)
    .query(({ ctx, input }) => ctx.checkout.merchant(ctx.session, clientAddressForLimits(ctx.http.req), input.to)),
});

/**
 * Invoice procedures: the merchant's (session auth, for the Payments page and the point of sale),
 * the hosted page's public view, open to all, and 'Pay with Quern' for a signed-in user, who must
 * have proved their password (or two-factor code) recently, as for any step that moves money from
 * a page another site may link to.
 */
import {
  INVOICES_PAGE_SIZE,
  invoiceCreateTrpcInput,
  invoiceOutput,
  invoicePublicInput,
  invoicePublicOutput,
  invoicesListInput,
  invoicesListOutput,
  invoiceRefundCancelTrpcInput,
  invoiceRefundCreateTrpcInput,
  invoiceRefundOutput,
  refundClaimInput,
  refundClaimOutput,
  refundClaimSubmitInput,
} from '@quern/core/invoices';
import { authedProcedure, publicProcedure, router } from '../trpc/init.js';

export const invoicesRouter = router({
  create: authedProcedure
    .input(invoiceCreateTrpcInput)
    .output(invoiceOutput)
    .mutation(({ ctx, input }) => ctx.invoices.create(ctx.session.userId, input.idempotencyKey, input.input)),
  get: authedProcedure
    .input(invoicePublicInput)
    .output(invoiceOutput)
    .query(({ ctx, input }) => ctx.invoices.get(ctx.session.userId, input.id)),
  list: authedProcedure
    .input(invoicesListInput)
    .output(invoicesListOutput)
    .query(({ ctx, input }) =>
      ctx.invoices.list(ctx.session.userId, {
        limit: input.limit ?? INVOICES_PAGE_SIZE,
        ...(input.cursor === undefined ? {} : { startingAfter: input.cursor }),
        ...(input.status === undefined ? {} : { status: input.status }),
      }),
    ),
  void: authedProcedure
    .input(invoicePublicInput)
    .output(invoiceOutput)
    .mutation(({ ctx, input }) => ctx.invoices.void(ctx.session.userId, input.id)),
  public: publicProcedure
    .input(invoicePublicInput)
    .output(invoicePublicOutput)
    .query(({ ctx, input }) => ctx.invoices.publicView(input.id)),
  refund: authedProcedure
    .input(invoiceRefundCreateTrpcInput)
    .output(invoiceRefundOutput)
    .mutation(({ ctx, input }) => {
      // Money leaves the merchant's balance once the payer claims it: the password was proved recently.
      ctx.identity.requireRecentAuthentication(ctx.session);
      return ctx.invoices.refund(ctx.session.userId, input.id, input.idempotencyKey, input);
    }),
  cancelRefund: authedProcedure
    .input(invoiceRefundCancelTrpcInput)
    .output(invoiceRefundOutput)
    .mutation(({ ctx, input }) => ctx.invoices.cancelRefund(ctx.session.userId, input.id, input.refundId)),
  // The payer's claim link: open to all, the link's token is the only credential.
  refundClaim: publicProcedure
    .input(refundClaimInput)
    .output(refundClaimOutput)
    .query(({ ctx, input }) => ctx.invoices.refundClaimView(input.refundId, input.token)),
  claimRefund: publicProcedure
    .input(refundClaimSubmitInput)
    .output(refundClaimOutput)
    .mutation(({ ctx, input }) => ctx.invoices.claimRefund(input.refundId, input.token, input.address)),
  pay: authedProcedure
    .input(invoicePublicInput)
    .output(invoicePublicOutput)
    .mutation(({ ctx, input }) => {
      ctx.identity.requireRecentAuthentication(ctx.session);
      return ctx.invoices.payFromBalance(ctx.session.userId, input.id);
    }),
});

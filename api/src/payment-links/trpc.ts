/**
 * Payment link procedures: the merchant's (session auth, for the Payments page), and the pay
 * page's, open to all: its public view and the call that makes a visitor's invoice, limited per
 * client address (the service counts it).
 */
import {
  PAYMENT_LINKS_PAGE_SIZE,
  paymentLinkCreateTrpcInput,
  paymentLinkIdInput,
  paymentLinkOutput,
  paymentLinkPayInput,
  paymentLinkPayOutput,
  paymentLinkPublicOutput,
  paymentLinksListInput,
  paymentLinksListOutput,
  paymentLinkViewInput,
} from '@quern/core/payment-links';
import { clientAddressForLimits } from '../http/client-address.js';
import { authedProcedure, publicProcedure, router } from '../trpc/init.js';

export const paymentLinksRouter = router({
  create: authedProcedure
    .input(paymentLinkCreateTrpcInput)
    .output(paymentLinkOutput)
    .mutation(({ ctx, input }) => ctx.paymentLinks.create(ctx.session.userId, input.idempotencyKey, input.input)),
  list: authedProcedure
    .input(paymentLinksListInput)
    .output(paymentLinksListOutput)
    .query(({ ctx, input }) =>
      ctx.paymentLinks.list(ctx.session.userId, {
        limit: input.limit ?? PAYMENT_LINKS_PAGE_SIZE,
        ...(input.cursor === undefined ? {} : { startingAfter: input.cursor }),
      }),
    ),
  deactivate: authedProcedure
    .input(paymentLinkIdInput)
    .output(paymentLinkOutput)
    .mutation(({ ctx, input }) => ctx.paymentLinks.deactivate(ctx.session.userId, input.id)),
  activate: authedProcedure
    .input(paymentLinkIdInput)
    .output(paymentLinkOutput)
    .mutation(({ ctx, input }) => ctx.paymentLinks.activate(ctx.session.userId, input.id)),
  view: publicProcedure
    .input(paymentLinkViewInput)
    .output(paymentLinkPublicOutput)
    .query(({ ctx, input }) => ctx.paymentLinks.view(input.slug)),
  pay: publicProcedure
    .input(paymentLinkPayInput)
    .output(paymentLinkPayOutput)
    .mutation(({ ctx, input }) =>
      ctx.paymentLinks.pay(clientAddressForLimits(ctx.http.req), {
        slug: input.slug,
        visitId: input.visitId,
        ...(input.amount === undefined ? {} : { amount: input.amount }),
      }),
    ),
});

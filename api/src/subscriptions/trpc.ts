/** Subscription procedures for the web's plan and subscription screens; thin calls into the service. */
import {
  acceptPriceInput,
  cancelOutput,
  subscribeInput,
  subscribeOutput,
  subscribeQuoteOutput,
  subscriptionContentOutput,
  subscriptionIdInput,
  subscriptionListOutput,
} from '@quern/core/subscriptions';
import { infinitePageInput } from '@quern/core/plans';
import { z } from 'zod';
import { authedProcedure, router } from '../trpc/init.js';

export const subscriptionsRouter = router({
  quote: authedProcedure
    .input(z.strictObject({ subscription_plan_id: subscribeInput.shape.subscription_plan_id }))
    .output(subscribeQuoteOutput)
    .query(({ ctx, input }) => ctx.subscriptions.quote(ctx.session.userId, input.subscription_plan_id)),
  create: authedProcedure
    .input(subscribeInput)
    .output(subscribeOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.create(ctx.session.userId, input, ctx.language)),
  // A page at a time (ADR 057): no input is the first page of up to 1,000.
  mine: authedProcedure
    .input(infinitePageInput.optional())
    .output(subscriptionListOutput)
    .query(({ ctx, input }) => ctx.subscriptions.mine(ctx.session.userId, input)),
  get: authedProcedure
    .input(subscriptionIdInput)
    .output(subscriptionContentOutput)
    .query(({ ctx, input }) => ctx.subscriptions.get(ctx.session.userId, input.id)),
  cancel: authedProcedure
    .input(subscriptionIdInput)
    .output(cancelOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.cancel(ctx.session.userId, input.id, ctx.language)),
  resume: authedProcedure
    .input(subscriptionIdInput)
    .output(cancelOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.resume(ctx.session.userId, input.id, ctx.language)),
  acceptPrice: authedProcedure
    .input(acceptPriceInput)
    .output(cancelOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.acceptPrice(ctx.session.userId, input, ctx.language)),
  endForPrice: authedProcedure
    .input(subscriptionIdInput)
    .output(cancelOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.endForPrice(ctx.session.userId, input.id, ctx.language)),
});

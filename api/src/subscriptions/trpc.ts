/** Subscription procedures for the web's plan and subscription screens; thin calls into the service. */
import {
  cancelOutput,
  subscribeInput,
  subscribeOutput,
  subscribeQuoteOutput,
  subscriptionContentOutput,
  subscriptionIdInput,
  subscriptionListOutput,
} from '@quern/core/subscriptions';
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
  mine: authedProcedure.output(subscriptionListOutput).query(({ ctx }) => ctx.subscriptions.mine(ctx.session.userId)),
  get: authedProcedure
    .input(subscriptionIdInput)
    .output(subscriptionContentOutput)
    .query(({ ctx, input }) => ctx.subscriptions.get(ctx.session.userId, input.id)),
  cancel: authedProcedure
    .input(subscriptionIdInput)
    .output(cancelOutput)
    .mutation(({ ctx, input }) => ctx.subscriptions.cancel(ctx.session.userId, input.id, ctx.language)),
});

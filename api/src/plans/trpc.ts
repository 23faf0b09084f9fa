/** Plan procedures for the web's plan screens; each is a thin call into the plan service. */
import {
  planContentOutput,
  planCreateInput,
  planIdInput,
  planListOutput,
  planMessageOutput,
  planSubscribersInput,
  planUpdateInput,
  infinitePageInput,
  pageDirectionShape,
  subscriberListOutput,
  userPlansInput,
} from '@quern/core/plans';
import { z } from 'zod';
import { authedProcedure, router } from '../trpc/init.js';

const profileOutput = z.object({
  content: z.object({ id: z.string(), username: z.string(), first_name: z.string(), last_name: z.string() }),
});

export const plansRouter = router({
  create: authedProcedure
    .input(planCreateInput)
    .output(planMessageOutput)
    .mutation(({ ctx, input }) => ctx.plans.create(ctx.session.userId, input, ctx.language)),
  get: authedProcedure
    .input(planIdInput)
    .output(planContentOutput)
    .query(({ ctx, input }) => ctx.plans.get(input.id)),
  // A page at a time (ADR 057): no input is the first page of up to 1,000.
  mine: authedProcedure
    .input(infinitePageInput.optional())
    .output(planListOutput)
    .query(({ ctx, input }) => ctx.plans.mine(ctx.session.userId, input)),
  ofUser: authedProcedure
    .input(userPlansInput)
    .output(planListOutput)
    .query(({ ctx, input }) => ctx.plans.ofUser(input.user_id, input)),
  update: authedProcedure
    .input(planUpdateInput)
    .output(planMessageOutput)
    .mutation(({ ctx, input }) => ctx.plans.update(ctx.session.userId, input, ctx.language)),
  delete: authedProcedure
    .input(planIdInput)
    .output(planMessageOutput)
    .mutation(({ ctx, input }) => ctx.plans.delete(ctx.session.userId, input.id, ctx.language)),
  subscribers: authedProcedure
    .input(planSubscribersInput.extend(pageDirectionShape))
    .output(subscriberListOutput)
    .query(({ ctx, input }) => ctx.plans.subscribers(ctx.session.userId, input.id, input)),
  userProfile: authedProcedure
    .input(
      z.strictObject({ username: z.string().trim().min(1, { error: 'errors:userNotFound' }).max(64, { error: 'errors:userNotFound' }) }),
    )
    .output(profileOutput)
    .query(({ ctx, input }) => ctx.plans.profile(input.username)),
});

/** Webhook procedures for the web's API Direct page; each is a thin call into the webhook service. */
import {
  webhookDeliveriesInput,
  webhookDeliveryListOutput,
  webhookDeliveryOutput,
  webhookDeliveryParams,
  webhookEndpointCreatedOutput,
  webhookEndpointCreateInput,
  webhookEndpointDeletedOutput,
  webhookEndpointListOutput,
  webhookEndpointParams,
} from '@quern/core/webhooks';
import { authedProcedure, router } from '../trpc/init.js';

export const webhooksRouter = router({
  list: authedProcedure.output(webhookEndpointListOutput).query(({ ctx }) => ctx.webhooks.list(ctx.session.userId)),
  create: authedProcedure
    .input(webhookEndpointCreateInput)
    .output(webhookEndpointCreatedOutput)
    .mutation(({ ctx, input }) => {
      // A new endpoint receives the merchant's events: it needs a recent proof of the password (ADR 045).
      ctx.identity.requireRecentAuthentication(ctx.session);
      return ctx.webhooks.create(ctx.session.userId, input);
    }),
  remove: authedProcedure
    .input(webhookEndpointParams)
    .output(webhookEndpointDeletedOutput)
    .mutation(({ ctx, input }) => ctx.webhooks.remove(ctx.session.userId, input.id)),
  rotateSecret: authedProcedure
    .input(webhookEndpointParams)
    .output(webhookEndpointCreatedOutput)
    .mutation(({ ctx, input }) => {
      // Whoever holds the new secret can forge the merchant's webhooks: a recent password proof, as for create.
      ctx.identity.requireRecentAuthentication(ctx.session);
      return ctx.webhooks.rotateSecret(ctx.session.userId, input.id);
    }),
  sendTest: authedProcedure
    .input(webhookEndpointParams)
    .output(webhookDeliveryOutput)
    .mutation(({ ctx, input }) => ctx.webhooks.sendTest(ctx.session.userId, input.id)),
  deliveries: authedProcedure
    .input(webhookDeliveriesInput)
    .output(webhookDeliveryListOutput)
    .query(({ ctx, input }) => ctx.webhooks.deliveries(ctx.session.userId, input.id, input)),
  redeliver: authedProcedure
    .input(webhookDeliveryParams)
    .output(webhookDeliveryOutput)
    .mutation(({ ctx, input }) => ctx.webhooks.redeliver(ctx.session.userId, input.id, input.delivery)),
});

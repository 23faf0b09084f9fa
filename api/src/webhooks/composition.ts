/** The webhooks service (endpoints and their secrets), from the composition context (ADR 073). */
import type { CompositionContext } from '../composition.js';
import { createWebhookService, type WebhookService } from './service.js';

// Every request's context carries it as ctx.webhooks.
declare module '../http/context.js' {
  interface ApiServices {
    webhooks: WebhookService;
  }
}

export const composeWebhooksService = ({ config, commands, redis }: CompositionContext) => ({
  webhooks: createWebhookService({
    core: commands,
    redis,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    mode: config.QUERN_MODE,
  }),
});

/** The webhooks service (endpoints and their secrets), from the composition context (ADR 073). */
import type { CompositionContext } from '../composition.js';
import { createWebhookService } from './service.js';

export const composeWebhooksService = ({ config, commands, redis }: CompositionContext) => ({
  webhooks: createWebhookService({
    core: commands,
    redis,
    allowPrivateNetworks: config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    mode: config.QUERN_MODE,
  }),
});

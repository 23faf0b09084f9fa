/** The webhooks capability's registration: its service's composer, its tRPC procedures and /api/v1 operations (ADR 068, ADR 073). */
import { apiModule } from '../http/api-module.js';
import { router } from '../trpc/init.js';
import { composeWebhooksService } from './composition.js';
import { webhooksRouter } from './trpc.js';
import { webhookV1Routes } from './v1-routes.js';

export const webhooksModule = apiModule({
  name: 'webhooks',
  compose: composeWebhooksService,
  trpc: router({ webhooks: webhooksRouter }),
  v1: webhookV1Routes,
});

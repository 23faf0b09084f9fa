/** The merchant keys service (API Direct, and the bearer keys of /api/v1), from the composition context (ADR 073). */
import type { CompositionContext } from '../composition.js';
import { createMerchantKeysService, type MerchantKeysService } from './service.js';

// Every request's context carries it as ctx.merchantKeys.
declare module '../http/context.js' {
  interface ApiServices {
    merchantKeys: MerchantKeysService;
  }
}

export const composeMerchantKeysService = ({ config, commands, redis }: CompositionContext) => ({
  merchantKeys: createMerchantKeysService({
    core: commands,
    mode: config.QUERN_MODE,
    redis,
    requestsPerMinute: config.API_KEY_REQUESTS_PER_MINUTE,
  }),
});

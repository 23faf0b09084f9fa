/** The plans service, from the composition context and the wallet's service (ADR 073). */
import type { CompositionContext } from '../composition.js';
import type { WalletService } from '../wallet/service.js';
import { createPlanService, type PlanService } from './service.js';

// Every request's context carries it as ctx.plans.
declare module '../http/context.js' {
  interface ApiServices {
    plans: PlanService;
  }
}

export const composePlansService = ({ commands, redis }: CompositionContext, { wallet }: { wallet: WalletService }) => ({
  plans: createPlanService({
    core: commands,
    redis,
    noteWrite: (userId, position) => wallet.noteWrite(userId, position),
    awaitOwnWrites: (userId) => wallet.awaitOwnWrites(userId),
  }),
});

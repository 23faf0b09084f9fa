/** API Direct procedures for the web's /api-direct page; each is a thin call into the direct service. */
import { keyDeleteOutput, keyGenerateOutput, keyGetOutput } from '@quern/core/merchant-keys';
import { authedProcedure, router } from '../trpc/init.js';

export const directRouter = router({
  keyGet: authedProcedure.output(keyGetOutput).query(({ ctx }) => ctx.direct.keyGet(ctx.session)),
  // Both need a recent proof of the password (step-up, ADR 045).
  keyGenerate: authedProcedure.output(keyGenerateOutput).mutation(({ ctx }) => {
    ctx.identity.requireRecentAuthentication(ctx.session);
    return ctx.direct.keyGenerate(ctx.session, ctx.language);
  }),
  keyDelete: authedProcedure.output(keyDeleteOutput).mutation(({ ctx }) => {
    ctx.identity.requireRecentAuthentication(ctx.session);
    return ctx.direct.keyDelete(ctx.session, ctx.language);
  }),
});

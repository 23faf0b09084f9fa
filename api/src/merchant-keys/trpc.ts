/** API Direct procedures for the web's /api-direct page; each is a thin call into the merchant keys service. */
import { keyDeleteOutput, keyGenerateOutput, keyGetOutput } from '@quern/core/merchant-keys';
import { authedProcedure, router } from '../trpc/init.js';

export const merchantKeysRouter = router({
  keyGet: authedProcedure.output(keyGetOutput).query(({ ctx }) => ctx.merchantKeys.keyGet(ctx.session)),
  // Both need a recent proof of the password (step-up, ADR 045).
  keyGenerate: authedProcedure.output(keyGenerateOutput).mutation(({ ctx }) => {
    ctx.identity.requireRecentAuthentication(ctx.session);
    return ctx.merchantKeys.keyGenerate(ctx.session, ctx.language);
  }),
  keyDelete: authedProcedure.output(keyDeleteOutput).mutation(({ ctx }) => {
    ctx.identity.requireRecentAuthentication(ctx.session);
    return ctx.merchantKeys.keyDelete(ctx.session, ctx.language);
  }),
});

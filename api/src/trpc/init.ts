/** tRPC initialisation: the context type and the two procedure kinds the app uses. */
import { initTRPC } from '@trpc/server';
import { AppError } from '@quern/core';
import type { RequestContext } from '../http/context.js';
import { appErrorData, toAppError } from '../http/errors.js';

const t = initTRPC.context<RequestContext>().create({
  errorFormatter({ shape, error }) {
    const appError = toAppError(error.cause ?? error, shape.data.code === 'BAD_REQUEST');
    return {
      ...shape,
      message: appErrorData(appError, 'en').message,
      data: { ...shape.data, stack: undefined, appError: appErrorData(appError, 'en') },
    };
  },
});

export const router = t.router;
export const publicProcedure = t.procedure;

/** Requires a session; the handler receives it as ctx.session. */
export const authedProcedure = t.procedure.use(async ({ ctx, next }) => {
  const session = await ctx.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return next({ ctx: { ...ctx, session } });
});

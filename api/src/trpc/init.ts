/** tRPC initialisation: the context type, the error shape and the two procedure kinds the app uses. */
import { initTRPC } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { AppError } from '@quern/core';
import type { RequestContext } from '../http/context.js';
import { appErrorData, statusOf, toAppError, trpcCodeOf } from '../http/errors.js';
import { requestIdOf } from '../http/request-id.js';

const t = initTRPC.context<RequestContext>().create({
  /**
   * Every error a procedure throws (AppError, ZodError, anything else) gets its tRPC code and
   * HTTP status from the table REST uses; tRPC takes the response status from data.httpStatus.
   * The web app reads data.appError; an unexpected error shows only errors:internal and the id.
   */
  errorFormatter({ shape, error, ctx }) {
    const appError = toAppError(error);
    const code = trpcCodeOf(appError);
    // The caller's language, as REST answers: the message and its amounts read as they expect.
    const body = appErrorData(appError, ctx?.language ?? 'en', ctx ? requestIdOf(ctx.http.res) : undefined);
    return {
      ...shape,
      code: TRPC_ERROR_CODES_BY_KEY[code],
      message: body.message,
      data: { ...shape.data, code, httpStatus: statusOf(appError), stack: undefined, appError: body },
    };
  },
});

export const router = t.router;
export const mergeRouters = t.mergeRouters;
export const publicProcedure = t.procedure;

/** Requires a session; the handler receives it as ctx.session. */
export const authedProcedure = t.procedure.use(async ({ ctx, next }) => {
  const session = await ctx.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return next({ ctx: { ...ctx, session } });
});

/**
 * tRPC's onError hook: tRPC answers its own errors (they never reach the Express error handler),
 * so this is where an unexpected one is logged, once per failed call, with the request id. A
 * rate-limited call gets the same Retry-After header REST sends.
 */
import type { TRPCError } from '@trpc/server';
import type { Request } from 'express';
import { isInternal, originalOf, retryAfterSeconds, toAppError } from '../http/errors.js';
import { logUnexpectedError } from '../http/request-id.js';

export function onTrpcError({ error, req }: { error: TRPCError; req: Request }): void {
  const appError = toAppError(error);
  if (isInternal(appError)) logUnexpectedError(req, originalOf(appError));
  const retryAfter = retryAfterSeconds(appError);
  const res = req.res;
  if (retryAfter !== undefined && res && !res.headersSent && !res.get('Retry-After')) res.setHeader('Retry-After', String(retryAfter));
}

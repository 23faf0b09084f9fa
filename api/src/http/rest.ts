/**
 * REST plumbing: a route parses its input with the capability's zod schema, calls the same
 * service as tRPC, and answers JSON. Every failure goes through one error handler.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isLanguage, type Language } from '@quern/core/i18n';
import type { ZodType } from 'zod';
import { AppError } from '@quern/core';
import type { Session } from '../identity/sessions.js';
import type { RequestContext } from './context.js';
import { readCookie } from './cookies.js';
import { LANGUAGE_COOKIE } from './web/page-language.js';
import {
  type ErrorBody,
  appErrorData,
  isInternal,
  originalOf,
  retryAfterSeconds,
  statusOf,
  toAppError,
  trpcErrorEnvelope,
} from './errors.js';
import { logUnexpectedError, requestIdOf } from './request-id.js';
import { v1ErrorBody } from '../v1/errors.js';

export type ContextFactory = (req: Request, res: Response) => RequestContext;

/**
 * The caller's language for server messages and for the e-mails a request leads to: the one they
 * chose in the web app (its language cookie), else the first supported one in Accept-Language.
 */
export function requestLanguage(req: Request): Language {
  const chosen = readCookie(req.get('cookie'), LANGUAGE_COOKIE);
  if (isLanguage(chosen)) return chosen;
  const header = req.get('accept-language') ?? '';
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]?.trim().slice(0, 2).toLowerCase();
    if (isLanguage(tag)) return tag;
  }
  return 'en';
}

export function restRoute<I, O>(
  createContext: ContextFactory,
  schema: ZodType<I> | null,
  run: (ctx: RequestContext, input: I) => Promise<O>,
): RequestHandler {
  return async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const raw = req.method === 'GET' ? req.query : (req.body ?? {});
      const input = schema ? schema.parse(raw) : (undefined as I);
      const output = await run(ctx, input);
      res.status(200).json(output);
    } catch (error) {
      next(error);
    }
  };
}

/** The caller's session, or 401. */
export async function requireSession(ctx: RequestContext): Promise<Session> {
  const session = await ctx.getSession();
  if (!session) throw new AppError('UNAUTHENTICATED', 'errors:notAuthenticated');
  return session;
}

/**
 * A route for signed-in callers. The session is checked before the handler reads any input: a
 * visitor gets 401, never a validation answer about a call they may not make.
 */
export function authedRoute<O>(
  createContext: ContextFactory,
  handler: (ctx: RequestContext, session: Session) => Promise<O>,
): RequestHandler {
  return restRoute(createContext, null, async (ctx) => handler(ctx, await requireSession(ctx)));
}

const isTrpcCall = (req: Request) => /^\/trpc(\/|\?|$)/.test(req.originalUrl);
const isPayPalCall = (req: Request) => req.originalUrl.startsWith('/api/paypal/');
/** The merchant API, including its unknown paths: they answer in its shape (v1/errors.ts). */
const isMerchantApiCall = (req: Request) => /^\/api\/v1(\/|\?|$)/i.test(req.originalUrl);

/**
 * The spec's PayPal calls answer failures in PayPal's shape as well (`error`, `details[issue,
 * description]`, `debug_id`): PayPal's own issue and debug id when PayPal refused, else Quern's
 * code, message and request id.
 */
function withPayPalShape(body: ErrorBody) {
  const { issue, description, debugId } = body.params;
  return {
    ...body,
    error: body.message,
    details: [
      {
        issue: typeof issue === 'string' ? issue : body.code,
        description: typeof description === 'string' && description ? description : body.message,
      },
    ],
    debug_id: typeof debugId === 'string' ? debugId : body.requestId,
  };
}

/**
 * Express error handler: every error answers with its status from errors.ts and a readable body
 * with the request id (in tRPC's envelope for a /trpc call refused before tRPC ran, in the
 * merchant API's shape under /api/v1, in PayPal's for the spec's PayPal calls); an
 * unexpected one is logged here (once) and answers only errors:internal.
 */
export function errorHandler(error: unknown, req: Request, res: Response, next: NextFunction): void {
  const appError = toAppError(error);
  const requestId = requestIdOf(res);
  if (isInternal(appError)) logUnexpectedError(req, originalOf(appError));
  // A response already under way cannot change its status: Express's own handler ends it.
  if (res.headersSent) {
    next(error);
    return;
  }
  const retryAfter = retryAfterSeconds(appError);
  if (retryAfter !== undefined && !res.get('Retry-After')) res.setHeader('Retry-After', String(retryAfter));
  const body = appErrorData(appError, requestLanguage(req), requestId);
  const status = statusOf(appError);
  res.status(status).json(shapeFor(req, appError, body, status));
}

/** Each family of calls reads its failures in its own shape; the rest read ErrorBody itself. */
function shapeFor(req: Request, appError: AppError, body: ErrorBody, status: number) {
  if (isTrpcCall(req)) return trpcErrorEnvelope(appError, body);
  if (isPayPalCall(req)) return withPayPalShape(body);
  if (isMerchantApiCall(req)) return v1ErrorBody(body, status);
  return body;
}

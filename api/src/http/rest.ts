/**
 * REST plumbing: a route parses its input with the capability's zod schema, calls the same
 * service as tRPC, and answers JSON. Every failure goes through one error handler.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@quern/core';
import { isLanguage, type Language } from '@quern/core/i18n';
import type { ZodType } from 'zod';
import type { RequestContext } from './context.js';
import { appErrorData, isInternal, statusOf, toAppError } from './errors.js';

export type ContextFactory = (req: Request, res: Response) => RequestContext;

/** The caller's language for server messages: the first supported one in Accept-Language. */
export function requestLanguage(req: Request): Language {
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

/** Express error handler: domain errors keep their status; nothing leaks a stack trace. */
export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  const language = requestLanguage(req);
  const appError = toAppError(error);
  // body-parser marks malformed or oversized bodies with a 4xx status of its own.
  const parserStatus = (error as { status?: number }).status;
  if (isInternal(appError) && parserStatus && parserStatus >= 400 && parserStatus < 500) {
    res.status(parserStatus).json(appErrorData(new AppError('VALIDATION', 'errors:invalidRequest'), language));
    return;
  }
  if (isInternal(appError)) console.error('[api] unexpected error', req.method, req.path, error);
  res.status(statusOf(appError)).json(appErrorData(appError, language));
}

/**
 * Every request carries an id: the one a proxy or client sent in X-Request-Id when it is well
 * formed, else a fresh UUID. It is echoed in the response header, put in error bodies, and
 * written with every unexpected error, so a user's "it said reference X" finds its log line.
 */
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import type { NextFunction, Request, Response } from 'express';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An incoming id is trusted only in this shape: short, and with no spaces, quotes or line
 * breaks, so a client cannot forge log lines or bloat them. UUIDs and the usual proxy ids fit.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9][A-Za-z0-9._:=+/-]{0,127}$/;

export function requestIds() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get(REQUEST_ID_HEADER);
    const id = incoming !== undefined && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}

/** The id requestIds() gave this response; undefined only for a request that bypassed it. */
export function requestIdOf(res: Response): string | undefined {
  const id: unknown = res.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The one log line of an unexpected error: id, method, path (without the query, which may hold
 * a recipient or a token) and the stack. Called by the Express error handler or by tRPC's
 * onError, whichever answered the request, never both.
 */
export function logUnexpectedError(req: Request, error: unknown): void {
  const requestId = req.res ? requestIdOf(req.res) : undefined;
  const path = req.originalUrl.split('?')[0];
  // inspect prints the stack and the cause chain of an Error, and any other thrown value safely.
  const detail = inspect(error, { depth: 4 });
  console.error(`[api] unexpected error request=${requestId ?? '-'} ${req.method} ${path}\n${detail}`);
}

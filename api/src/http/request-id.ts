/**
 * Every request carries an id: the one a proxy or client sent in Request-Id or X-Request-Id when
 * it is well formed, else a fresh UUID. It is echoed in both response headers, put in error
 * bodies, and written in the request's access-log line and with every unexpected error, so a
 * user's "it said reference X" finds its log lines.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { log } from '@quern/adapters/runtime';
import { routeOf } from './route-pattern.js';

/** The header of the contract (and of the IETF draft and several APIs). */
export const REQUEST_ID_HEADER = 'Request-Id';
/** The header proxies and older clients use; still read and answered. */
export const X_REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * An incoming id is trusted only in this shape: short, and with no spaces, quotes or line
 * breaks, so a client cannot forge log lines or bloat them. UUIDs and the usual proxy ids fit.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9][A-Za-z0-9._:=+/-]{0,127}$/;

export function requestIds() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get(REQUEST_ID_HEADER) ?? req.get(X_REQUEST_ID_HEADER);
    const id = incoming !== undefined && WELL_FORMED_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    res.setHeader(X_REQUEST_ID_HEADER, id);
    next();
  };
}

/** The id requestIds() gave this response; undefined only for a request that bypassed it. */
export function requestIdOf(res: Response): string | undefined {
  const id: unknown = res.locals.requestId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The one log line of an unexpected error: id, method, route (its pattern, never the raw URL:
 * that may hold a recipient or a token) and the error with its stack. Called by the Express
 * error handler or by tRPC's onError, whichever answered the request, never both.
 */
export function logUnexpectedError(req: Request, error: unknown): void {
  const requestId = req.res ? requestIdOf(req.res) : undefined;
  log.error({ part: 'api', requestId: requestId ?? null, method: req.method, route: routeOf(req, 500), err: error }, 'unexpected error');
}

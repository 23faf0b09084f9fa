/**
 * One access-log line per request once its answer is sent (or the client went away): method,
 * route pattern, status, duration and request id. Never the query string, body, cookies or
 * headers (ADR 052). /healthz and /metrics, polled by monitors every few seconds, log at debug.
 * The route is classified as the HTTP metrics label it (route-pattern.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import { type JsonLogger, log } from '@quern/adapters/runtime';
import { requestIdOf } from './request-id.js';
import { answeredStatus, routeOf } from './route-pattern.js';

/** Paths polled by monitors and scrapers: their lines would drown the others at info. */
const POLLED_PATHS = new Set(['/healthz', '/metrics']);

export interface AccessLogOptions {
  /** The process's logger unless a test gives its own. */
  logger?: JsonLogger;
  /** The tRPC router's procedure names, so an unknown one is logged as the metrics count it. */
  procedures?: ReadonlySet<string>;
}

export function accessLog({ logger = log, procedures }: AccessLogOptions = {}) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    let logged = false;
    const write = () => {
      if (logged) return;
      logged = true;
      const durationMs = Number((process.hrtime.bigint() - started) / 1000n) / 1000;
      const status = answeredStatus(res);
      const line = {
        part: 'http',
        requestId: requestIdOf(res) ?? null,
        method: req.method,
        route: routeOf(req, status, procedures),
        status,
        durationMs,
      };
      const aborted = !res.writableFinished;
      if (POLLED_PATHS.has(req.originalUrl.split('?')[0] ?? '')) logger.debug(line, 'request');
      else logger.info(aborted ? { ...line, aborted } : line, 'request');
    };
    res.once('finish', write);
    res.once('close', write);
    next();
  };
}

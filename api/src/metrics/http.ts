/**
 * HTTP request metrics: one count and one duration per (method, route, status). The route label
 * is the pattern that answered (`/api/v1/payments/:order`) or the tRPC procedure
 * (`/trpc/wallet.send`), never the raw URL: a URL holds ids and whatever a scanner makes up, and
 * each distinct label value is a new time series kept forever. Everything else collapses to a
 * few fixed labels, so the number of series is bounded by the code, not by the callers. A request
 * the client abandoned before any answer has status "0". The labels are the access log's routes:
 * one classifier for both (api/src/http/route-pattern.ts).
 */
import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, type Registry } from 'prom-client';
import { answeredStatus, routeFactsOf, routeLabels } from '../http/route-pattern.js';

/** Seconds: from a fast cached read to a call that waits on the network (checkout, PayPal). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface HttpMetrics {
  middleware(): (req: Request, res: Response, next: NextFunction) => void;
}

export function createHttpMetrics(registry: Registry, procedures: ReadonlySet<string>): HttpMetrics {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'quern_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern (or tRPC procedure) and status code.',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'quern_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its response, by method, route pattern and status code.',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return {
    middleware: () => (req, res, next) => {
      const start = process.hrtime.bigint();
      // 'close' also fires for a response the client abandoned; 'finish' would miss those.
      res.once('close', () => {
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        // res.statusCode is 200 from the start: a request abandoned before its headers were sent is status 0.
        const facts = routeFactsOf(req, answeredStatus(res));
        const status = String(facts.status);
        for (const route of routeLabels(facts, procedures)) {
          const labels = { method: facts.method, route, status };
          requests.inc(labels);
          duration.observe(labels, seconds);
        }
      });
      next();
    },
  };
}

/**
 * Where Prometheus reads the metrics (ADR 053). Never public by default:
 * - METRICS_PORT: a small HTTP server of its own on METRICS_HOST (loopback unless set), serving
 *   only GET /metrics. Each process of a split deployment (api, projections, workers) starts one.
 * - METRICS_TOKEN: the main app answers GET /metrics to `Authorization: Bearer <token>` (401
 *   otherwise). Without a token the main app answers 404 to /metrics, whatever is presented.
 * With both, the separate server asks for the token too.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import type { Registry } from 'prom-client';
import { log } from '@quern/adapters/runtime';

/**
 * The scheme's case does not matter (RFC 9110), as for API keys. Compares digests, so neither
 * the token's length nor its bytes leak through timing.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  if (!presented) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

async function answer(registry: Registry, token: string | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  res.setHeader('Cache-Control', 'no-store');
  if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
    res.statusCode = 401;
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    res.end();
    return;
  }
  try {
    const text = await registry.metrics();
    res.statusCode = 200;
    res.setHeader('Content-Type', registry.contentType);
    res.end(text);
  } catch (error) {
    log.error({ part: 'metrics', err: error }, 'could not collect the metrics');
    res.statusCode = 500;
    res.end();
  }
}

/**
 * GET /metrics on the main app, behind the token. Without a token it answers 404 itself, with no
 * body: not the web app's not-found page, and the same answer whatever the caller presents.
 */
export function metricsRoute(registry: Registry, token: string | undefined): Router {
  const router = Router();
  router.get('/metrics', (req, res) => {
    if (token) void answer(registry, token, req, res);
    else res.status(404).end();
  });
  return router;
}

/** The separate metrics server; resolves once it listens (port 0 picks a free one). */
export async function startMetricsServer(
  registry: Registry,
  options: { port: number; host: string; token?: string },
): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.end();
      return;
    }
    void answer(registry, options.token, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    server,
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The HTTP application: security headers, body limits, CSRF defence, tRPC for the web app at
 * /trpc, the spec's REST paths under /api, the health check and the built web app.
 */
import express, { type Express, type Request, type Response, type Router } from 'express';
import { AppError, type QuernMode } from '@quern/core';
import { createExpressMiddleware } from '@trpc/server/adapters/express';
import { appRouter } from '../trpc/router.js';
import { apiModules } from '../modules.js';
import { v1Routes } from '../v1/router.js';
import { v1RouteTable } from '../v1/table.js';
import { openApiRoute } from '../v1/openapi-route.js';
import { SESSION_COOKIE, type SessionStore } from '../identity/sessions.js';
import type { ApiServices, RequestContext } from './context.js';
import { readCookie } from './cookies.js';
import { csrfGuard } from './csrf.js';
import { httpHeaders } from './headers.js';
import { errorHandler, requestLanguage } from './rest.js';
import { jsonBodies } from './json-body.js';
import { requestIds } from './request-id.js';
import { accessLog } from './access-log.js';
import { refuseBrokenUrlEncoding } from './url-encoding.js';
import { onTrpcError } from '../trpc/on-error.js';
import { sdkRoutes } from './sdk.js';
import { staticWebApp } from './static-web.js';
import type { HealthCheck } from '../health.js';
import { healthRoute } from './health-route.js';
import { createHttpMetrics } from '../metrics/http.js';
import { metricsRoute } from '../metrics/expose.js';
import type { Registry } from 'prom-client';

export interface AppDeps {
  /** Every capability's service (built from modules.ts), handed to each request as its context's fields. */
  services: ApiServices;
  sessions: SessionStore;
  health: HealthCheck;
  /** HEALTH_TOKEN: lets a remote monitor read the health check's detail. */
  healthToken?: string;
  /** Origins allowed to make cookie-authenticated calls (the public URL). */
  allowedOrigins: ReadonlySet<string>;
  /** Built web app; unset in api-only tests. */
  webDistDir?: string;
  /** COMPANY_NAME, filled into the web app's pages as they are served; 'Quern' when unset. */
  companyName?: string;
  /** QUERN_MODE: `livemode` on /api/v1 answers, and the sandbox banner of the pages (ADR 050); sandbox when unset. */
  mode?: QuernMode;
  /** Routes mounted before the catch-alls (e.g. the millix node's notification). */
  extraRoutes?: Router[];
  /** Express's 'trust proxy': false, a hop count, or the proxies' addresses (TRUST_PROXY). */
  trustProxy?: boolean | number | string[];
  /** PUBLIC_URL, for the OpenAPI document's server; unset, the document names a relative one. */
  publicUrl?: string;
  /** Whether PUBLIC_URL is https (HSTS, upgrade-insecure-requests). */
  https?: boolean;
  /** Metrics (ADR 053): the process's registry, and METRICS_TOKEN for /metrics on this app. */
  metrics?: { registry: Registry; token?: string };
}

/** JSON bodies are small in every call Quern has; a bound stops memory abuse. */
const BODY_LIMIT = '32kb';

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);
  app.use(requestIds());
  // Metrics (ADR 053): every request's count and duration, timed from here.
  const procedures = new Set(Object.keys(appRouter._def.procedures));
  if (deps.metrics) app.use(createHttpMetrics(deps.metrics.registry, procedures).middleware());
  app.use(accessLog({ procedures }));
  app.use(httpHeaders({ https: deps.https ?? false }));

  const createContext = (req: Request, res: Response): RequestContext => {
    let session: ReturnType<RequestContext['getSession']> | undefined;
    return {
      http: { req, res },
      language: requestLanguage(req),
      ...deps.services,
      getSession: () => (session ??= deps.sessions.get(readCookie(req.get('cookie'), SESSION_COOKIE))),
    };
  };

  app.use(healthRoute(deps.health, deps.healthToken));
  // Metrics (ADR 053): /metrics on this app only with METRICS_TOKEN, else 404.
  if (deps.metrics) app.use(metricsRoute(deps.metrics.registry, deps.metrics.token));

  app.use(['/api', '/trpc'], refuseBrokenUrlEncoding, jsonBodies(BODY_LIMIT), csrfGuard(deps.allowedOrigins));
  app.use(
    '/trpc',
    createExpressMiddleware({
      router: appRouter,
      createContext: ({ req, res }) => createContext(req, res),
      maxBatchSize: 10,
      onError: onTrpcError,
    }),
  );
  for (const module of apiModules.routes) if (module.rest) app.use(module.rest(createContext, { allowedOrigins: deps.allowedOrigins }));
  app.use(openApiRoute(v1RouteTable, { publicUrl: deps.publicUrl }));
  app.use(v1Routes(createContext, deps.services.merchantKeys, v1RouteTable, deps.mode ?? 'sandbox'));
  for (const routes of deps.extraRoutes ?? []) app.use(routes);
  app.use('/api', (_req, _res, next) => next(new AppError('NOT_FOUND', 'errors:notFound')));
  app.use(sdkRoutes());
  if (deps.webDistDir) app.use(staticWebApp(deps.webDistDir, deps.companyName, deps.mode));
  app.use(errorHandler);
  return app;
}

/**
 * CSRF defence for cookie-authenticated requests, without tokens: browsers send Sec-Fetch-Site
 * (and Origin) on every cross-site request, so a state-changing request that a browser marks as
 * cross-site is refused. Requests with neither header do not come from a browser page, so
 * cookies cannot have been attached by an attacker's page; integrations with API keys work.
 * The same-origin REST calls the spec's web client makes pass unchanged.
 */
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@quern/core';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isCrossSite(req: Request, allowedOrigins: ReadonlySet<string>): boolean {
  const fetchSite = req.get('sec-fetch-site');
  if (fetchSite) return fetchSite !== 'same-origin' && fetchSite !== 'none';
  const origin = req.get('origin');
  if (origin) return origin === 'null' || !allowedOrigins.has(origin);
  return false;
}

/**
 * Guards unsafe methods, plus safe-method routes that change state (the spec's GET send) when
 * they opt in with `csrfGuard(..., { alsoSafeMethods: true })`.
 */
export function csrfGuard(allowedOrigins: ReadonlySet<string>, options: { alsoSafeMethods?: boolean } = {}) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const guarded = options.alsoSafeMethods || !SAFE_METHODS.has(req.method);
    if (guarded && isCrossSite(req, allowedOrigins)) return next(new AppError('FORBIDDEN', 'errors:crossSiteRequest'));
    next();
  };
}

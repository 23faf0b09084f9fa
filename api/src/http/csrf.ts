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
 * A positive sign that the request comes from one of Quern's own pages: `Sec-Fetch-Site:
 * same-origin`, or else an Origin, or else a Referer, of an allowed origin. Browsers that send
 * none of these on a navigation (older Safari) fail this, which is the point: a link or an image
 * on another site must not be able to move money.
 */
export function hasSameOriginSignal(req: Request, allowedOrigins: ReadonlySet<string>): boolean {
  const fetchSite = req.get('sec-fetch-site');
  if (fetchSite) return fetchSite === 'same-origin';
  const origin = req.get('origin');
  if (origin) return allowedOrigins.has(origin);
  return allowedOrigins.has(originOf(req.get('referer')));
}

const originOf = (url: string | undefined): string => {
  if (!url) return '';
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** Refuses (403) a request without a positive same-origin signal; for GETs that move money. */
export function assertSameOrigin(req: Request, allowedOrigins: ReadonlySet<string>): void {
  if (!hasSameOriginSignal(req, allowedOrigins)) throw new AppError('FORBIDDEN', 'errors:crossSiteRequest');
}

/**
 * Guards unsafe methods. The one safe-method route that changes state (the spec's GET send)
 * asks for more with `assertSameOrigin`.
 */
export function csrfGuard(allowedOrigins: ReadonlySet<string>) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!SAFE_METHODS.has(req.method) && isCrossSite(req, allowedOrigins))
      return next(new AppError('FORBIDDEN', 'errors:crossSiteRequest'));
    next();
  };
}

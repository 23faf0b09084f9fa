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

/** The header the web app's scripts send with the GET send; no link, form, image, frame or redirect can carry it. */
export const SCRIPT_REQUEST_HEADER = 'X-Requested-With';
export const SCRIPT_REQUEST_VALUE = 'XMLHttpRequest';
/** Fetch Metadata of a script's fetch or XMLHttpRequest (a navigation says navigate, an image no-cors). */
const SCRIPT_FETCH_MODES = new Set(['cors', 'same-origin']);

/**
 * Whether the request was made by a script: it carries `X-Requested-With: XMLHttpRequest`, which
 * a foreign origin can only send after a CORS preflight Quern never grants, and its Fetch Metadata,
 * when the browser sends it, says a fetch (mode cors or same-origin, destination empty). A click
 * on a link to the URL, even on one of Quern's own pages (Sec-Fetch-Site: same-origin), fails.
 */
export function isScriptRequest(req: Request): boolean {
  if (req.get(SCRIPT_REQUEST_HEADER) !== SCRIPT_REQUEST_VALUE) return false;
  const mode = req.get('sec-fetch-mode');
  if (mode !== undefined && !SCRIPT_FETCH_MODES.has(mode)) return false;
  const dest = req.get('sec-fetch-dest');
  return dest === undefined || dest === 'empty';
}

/** Refuses (403) anything but a script's request from Quern's own pages; for the GET that moves money. */
export function assertSameOriginScript(req: Request, allowedOrigins: ReadonlySet<string>): void {
  if (!isScriptRequest(req)) throw new AppError('FORBIDDEN', 'errors:crossSiteRequest');
  assertSameOrigin(req, allowedOrigins);
}

/**
 * Guards unsafe methods. The one safe-method route that changes state (the spec's GET send)
 * asks for more with `assertSameOriginScript`.
 */
export function csrfGuard(allowedOrigins: ReadonlySet<string>) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!SAFE_METHODS.has(req.method) && isCrossSite(req, allowedOrigins))
      return next(new AppError('FORBIDDEN', 'errors:crossSiteRequest'));
    next();
  };
}

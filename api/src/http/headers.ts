/**
 * Response headers by kind of page. Every response gets helmet's security headers, with framing
 * refused by default (X-Frame-Options DENY, frame-ancestors 'none'; the pages that differ are
 * in web/csp.ts); HSTS and the
 * CSP's upgrade-insecure-requests only when Quern is served over https, because on plain http
 * (a local install) they would make browsers refuse or rewrite its own address. API answers
 * (REST and tRPC) are private data: never stored by a browser or a shared cache, and marked as
 * varying by the session cookie.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';

export const API_PATHS = ['/api', '/trpc'];

function markPrivate(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.vary('Cookie');
}

/**
 * Sets the headers now and again just before they are sent, because tRPC replaces Vary with its
 * own list when it answers.
 */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  markPrivate(res);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
    if (!this.headersSent) markPrivate(this);
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
}

export function httpHeaders(options: { https: boolean }): Router {
  const headers = Router();
  headers.use(
    helmet({
      crossOriginEmbedderPolicy: false,
      strictTransportSecurity: options.https,
      // null removes helmet's default directive; an empty list keeps it (it takes no value).
      // No page may be framed unless it says so (web/csp.ts: /checkout-buttons alone).
      frameguard: { action: 'deny' },
      contentSecurityPolicy: {
        directives: { frameAncestors: ["'none'"], upgradeInsecureRequests: options.https ? [] : null },
      },
    }),
  );
  headers.use(API_PATHS, noStore);
  return headers;
}

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

/** res.locals flag of an API answer that is public (the OpenAPI document): no no-store for it. */
const PUBLIC_ANSWER = 'quernPublicAnswer';

function markPrivate(res: Response): void {
  if (res.locals[PUBLIC_ANSWER] === true) return;
  res.setHeader('Cache-Control', 'no-store');
  res.vary('Cookie');
}

/**
 * An API answer that is the same for everyone and holds no one's data may be cached by browsers
 * and shared caches for `maxAgeSeconds` (then revalidated by its ETag).
 */
export function allowPublicCaching(res: Response, maxAgeSeconds: number): void {
  res.locals[PUBLIC_ANSWER] = true;
  res.setHeader('Cache-Control', `public, max-age=${maxAgeSeconds}`);
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

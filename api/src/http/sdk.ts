/**
 * Serves the shop SDK, /sdk/checkout.js (ADR 031): one small plain-JavaScript file read once at
 * start. Shops load it from their own pages, so it must be loadable cross-origin (helmet's
 * Cross-Origin-Resource-Policy: same-origin would block the <script>). Its address has no version,
 * so it is cached for an hour and revalidated by ETag rather than kept for good: a fix reaches
 * every shop within the hour.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Router } from 'express';

export const SDK_PATH = '/sdk/checkout.js';
const MAX_AGE_SECONDS = 3600;

export function sdkRoutes(): Router {
  const source = readFileSync(new URL('./sdk/checkout.js', import.meta.url));
  const etag = `"${createHash('sha256').update(source).digest('base64url').slice(0, 27)}"`;
  const routes = Router();
  routes.get(SDK_PATH, (req, res) => {
    res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
    res.setHeader('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
    res.setHeader('ETag', etag);
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.get('if-none-match') === etag) {
      res.status(304).end();
      return;
    }
    res.status(200).send(source);
  });
  return routes;
}

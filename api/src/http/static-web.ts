/**
 * Serves the built web app: hashed assets with long caching, index.html for every other GET
 * that is not an API path (the SPA routes). /checkout-buttons is meant to be embedded in other
 * sites' pages, so only that page may be framed by any origin.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { Router } from 'express';

const EMBEDDABLE_PATHS = new Set(['/checkout-buttons']);

export function staticWebApp(distDir: string): Router {
  const routes = Router();
  const indexFile = join(distDir, 'index.html');
  routes.use('/assets', express.static(join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }));
  routes.use(express.static(distDir, { index: false, maxAge: '1h' }));
  routes.get(/^\/(?!api\/|trpc\/|healthz$).*/, (req, res) => {
    if (!existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    if (EMBEDDABLE_PATHS.has(req.path)) {
      res.removeHeader('X-Frame-Options');
      res.setHeader(
        'Content-Security-Policy',
        ((res.getHeader('Content-Security-Policy') as string) ?? '').replace(/frame-ancestors[^;]*/, 'frame-ancestors *'),
      );
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });
  return routes;
}

/**
 * Serves the built web app (web/dist), every file precompressed (.br preferred, then .gz, chosen
 * by Accept-Encoding through express-static-gzip):
 * - /assets/*: hashed names, cached for good; a missing one is a plain 404, never a page.
 * - other public files (the favicon): cached for an hour.
 * - any other GET or HEAD outside the API: the prerendered HTML of the path in the visitor's
 *   language: its own page, else the shell for a client route, else the not-found page with 404.
 *   A path with trailing slashes that names a page or route is redirected (301) to the path
 *   without them, so each page has one address.
 * Pages are no-cache, vary by encoding, language and cookie, and their CSP allows the build's
 * inline scripts by hash (web/csp.ts). The Buy page and the checkout popup alone may load PayPal's
 * SDK; the checkout popup keeps its link to the shop that opened it; /checkout-buttons alone may be
 * framed; every other page keeps helmet's locked-down policies (no framing at all). HTML files are only
 * ever served as pages, so they are never cached or served in the wrong language under their
 * file names. The web build's contract is in web/manifest.ts; how a build after start is picked
 * up, and how each page gets the configured company name (COMPANY_NAME) and the mode's sign
 * (QUERN_MODE: the sandbox banner, ADR 050), in web/web-build.ts.
 */
import { resolve } from 'node:path';
import type { QuernMode } from '@quern/core';
import type { NextFunction, Request, Response, Router } from 'express';
import { Router as createRouter } from 'express';
import { choosePage } from './web/choose-page.js';
import { DEFAULT_COMPANY_NAME } from './web/company-name.js';
import { allowAnyFramer, allowCheckoutPopup, allowInlineScripts, allowPayPalCheckout } from './web/csp.js';
import { hashSources } from './web/manifest.js';
import { pageLanguage } from './web/page-language.js';
import { type WebBuild, webBuildOf } from './web/web-build.js';

const EMBEDDABLE_PATHS = new Set(['/checkout-buttons']);
/**
 * Pages that run PayPal's checkout. Compared in lower case, as the web app's routes match: a
 * document loaded at /MILLIX/buy shows the Buy page too (web/src/features/purchases/documentLoad.ts).
 */
const PAYPAL_CHECKOUT_PATHS = new Set(['/millix/buy']);
/** The checkout popup, opened by shops on other origins (compared in lower case, as above). */
const CHECKOUT_POPUP_PATHS = new Set(['/checkout']);
/** Answered by the API and the health check, never by a page. */
const NOT_PAGES = /^\/(?:api|trpc)(?:\/|$)|^\/healthz$/;
/** Served only as pages (language, no-cache), never under their file names. */
const NOT_PUBLIC_FILES = /^\/prerendered(?:\/|$)|\.html$/i;

/**
 * `companyName` (COMPANY_NAME, default Quern) is filled into every page as it is served (ADR 041),
 * and `mode` (QUERN_MODE, default sandbox) decides whether the pages show the sandbox banner (ADR 050).
 */
export function staticWebApp(distDir: string, companyName = DEFAULT_COMPANY_NAME, mode: QuernMode = 'sandbox'): Router {
  const builds = webBuildOf(resolve(distDir), { companyName, mode });
  const routes = createRouter();

  function servePage(build: WebBuild, req: Request, res: Response, next: NextFunction): void {
    const { manifest } = build;
    if (!manifest) {
      if (build.manifestError) next(build.manifestError);
      else res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    const path = req.path.replace(/\/+$/, '') || '/';
    const choice = choosePage(manifest, build.isRoute, path);
    // Only to a path of this site: '//host' or '/\host' would send browsers elsewhere.
    if (path !== req.path && choice.status === 200 && /^\/(?:$|[^/\\])/.test(path)) {
      const query = req.url.indexOf('?');
      res.redirect(301, path + (query < 0 ? '' : req.url.slice(query)));
      return;
    }
    const language = pageLanguage(req, manifest.languages, manifest.defaultLanguage);
    // serve-static keeps the status it finds, so a 404 page answers 404.
    res.status(choice.status);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Language', language);
    allowInlineScripts(res, hashSources(manifest));
    if (EMBEDDABLE_PATHS.has(path)) allowAnyFramer(res);
    if (PAYPAL_CHECKOUT_PATHS.has(path.toLowerCase())) allowPayPalCheckout(res);
    if (CHECKOUT_POPUP_PATHS.has(path.toLowerCase())) allowCheckoutPopup(res);
    const url = req.url;
    req.url = `/${language}/${choice.page}.html`;
    build.pages(req, res, (error?: unknown) => {
      req.url = url;
      next(error ?? new Error(`The web build has no prerendered/${language}/${choice.page}.html`));
    });
  }

  routes.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || NOT_PAGES.test(req.path)) {
      next();
      return;
    }
    let build: WebBuild;
    try {
      build = await builds.current();
    } catch (error) {
      next(error);
      return;
    }
    if (req.path.startsWith('/assets/')) {
      build.files(req, res, (error?: unknown) => (error ? next(error) : res.sendStatus(404)));
    } else if (NOT_PUBLIC_FILES.test(req.path)) {
      servePage(build, req, res, next);
    } else {
      build.files(req, res, (error?: unknown) => (error ? next(error) : servePage(build, req, res, next)));
    }
  });
  return routes;
}

/**
 * The browser half of the local PayPal server: the JS SDK script the shop page loads, and the
 * approval popup it opens. The REST half (orders, capture) is the protocol server's; both meet
 * in LocalPayPalBrowserState.
 *
 * Paths are PayPal's (/sdk/js, /checkoutnow?token=...), relative to wherever the router is
 * mounted: the SDK derives the popup's address from its own script URL, and the popup's page
 * refers to its script and endpoints relatively.
 *
 * What the shop (opener) page must send, or the checkout cannot work:
 * - `Cross-Origin-Opener-Policy: same-origin-allow-popups` (or `unsafe-none`), never `same-origin`:
 *   with same-origin the popup loses its opener, cannot post the result back, and looks closed
 *   to the SDK at once (onCancel). helmet's default is same-origin.
 * - a CSP whose script-src allows this server's origin (the SDK is a plain script from it).
 * The popup's answer goes to the origin the SDK put in its URL (`origin=`), and the SDK accepts
 * it only from the popup window it opened, from this server's origin, about the order it asked.
 */
import { readFileSync } from 'node:fs';
import express, { type NextFunction, Router, type Request, type Response } from 'express';
import { approvalPage, errorPage, POPUP_TEXT } from './pages.js';
import { parseSdkQuery, SdkQueryError } from './sdk-query.js';
import { APPROVABLE_STATUSES, LOCAL_BUYER, type LocalPayPalBrowserState, type PayerGuard } from './state.js';

const JAVASCRIPT = 'application/javascript; charset=utf-8';
const ORDER_ID_MAX = 64;

/** The popup runs only its own script, talks only to this server, and may not be framed. */
const POPUP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function readAsset(name: string): string {
  return readFileSync(new URL(`./assets/${name}`, import.meta.url), 'utf8');
}

function commonHeaders(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cache-Control', 'no-store');
}

function sendPopupHtml(res: Response, status: number, html: string): void {
  commonHeaders(res);
  res.setHeader('Content-Security-Policy', POPUP_CSP);
  // The popup must keep its link to the shop page that opened it, to post the result back.
  res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.status(status).type('html').send(html);
}

/** An http(s) origin exactly as `location.origin` writes it, or undefined. */
function parseOrigin(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? value : undefined;
  } catch {
    return undefined;
  }
}

function parseToken(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= ORDER_ID_MAX ? value : undefined;
}

export interface LocalPayPalBrowserOptions {
  /**
   * Whether the approval page and its approve and decline calls answer at all: only when this
   * server is the PayPal the deployment is configured to use. Off, they answer 404 and change
   * nothing, so nobody can act as the payer of an order. Default on (the stand-in on its own).
   */
  controlsEnabled?: boolean;
  /** Who may approve an order (see PayerGuard); none: whoever opens the page. */
  payerGuard?: PayerGuard;
}

export function createLocalPayPalBrowserRoutes(state: LocalPayPalBrowserState, options: LocalPayPalBrowserOptions = {}): Router {
  const controlsEnabled = options.controlsEnabled ?? true;
  const payerCheck = async (req: Request, orderId: string) =>
    options.payerGuard ? options.payerGuard(req, orderId) : ({ allowed: true } as const);
  const sdkSource = readAsset('sdk.js');
  const popupScript = readAsset('checkoutnow.js');
  const routes = Router();

  routes.get('/sdk/js', (req, res) => {
    commonHeaders(res);
    // Loaded by shop pages of other origins with no CORS: a same-origin CORP would block it.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type(JAVASCRIPT);
    try {
      const config = parseSdkQuery(req.query as Record<string, unknown>);
      res.send(`(function () {\n${sdkSource}\nquernLocalPayPalSdk(${JSON.stringify(config)}, document.currentScript);\n})();\n`);
    } catch (error) {
      if (!(error instanceof SdkQueryError)) throw error;
      // As PayPal does: a 400 (the script's onerror fires) whose body says why when run.
      res.status(400).send(`throw new Error(${JSON.stringify(`SDK Validation error: '${error.message}'`)});\n`);
    }
  });

  routes.get('/checkoutnow.js', (_req, res) => {
    commonHeaders(res);
    res.type(JAVASCRIPT).send(popupScript);
  });

  // The approval page and its choices act as the payer: absent unless this is the configured PayPal.
  const controlsOnly = (_req: Request, res: Response, next: NextFunction) => {
    if (controlsEnabled) return next();
    commonHeaders(res);
    res.status(404).json({ error: 'RESOURCE_NOT_FOUND' });
  };

  routes.get('/checkoutnow', controlsOnly, async (req, res) => {
    const token = parseToken(req.query.token);
    const order = token === undefined ? undefined : await state.getOrder(token);
    if (!order) return sendPopupHtml(res, 404, errorPage(POPUP_TEXT.unknownOrder));
    const origin = req.query.origin === undefined ? undefined : parseOrigin(req.query.origin);
    if (req.query.origin !== undefined && origin === undefined) return sendPopupHtml(res, 400, errorPage(POPUP_TEXT.badOrigin));
    if (!APPROVABLE_STATUSES.has(order.status)) return sendPopupHtml(res, 409, errorPage(`${POPUP_TEXT.notApprovable} (${order.status})`));
    const payer = await payerCheck(req, order.id);
    if (!payer.allowed) return sendPopupHtml(res, 403, errorPage(POPUP_TEXT[payer.reason]));
    sendPopupHtml(res, 200, approvalPage(order, origin));
  });

  const choices = {
    approve: (id: string) => state.approveOrder(id, { name: LOCAL_BUYER.name, email: LOCAL_BUYER.email }),
    decline: (id: string) => state.declineCard(id),
  };
  for (const [choice, apply] of Object.entries(choices)) {
    routes.post(`/checkoutnow/${choice}`, controlsOnly, express.json({ limit: '1kb' }), async (req, res) => {
      commonHeaders(res);
      // JSON only: a cross-site form cannot send it without a CORS preflight this server refuses.
      if (!req.is('application/json')) return void res.status(415).json({ error: 'UNSUPPORTED_MEDIA_TYPE' });
      const token = parseToken((req.body as { token?: unknown } | undefined)?.token);
      if (token === undefined) return void res.status(400).json({ error: 'INVALID_REQUEST' });
      const order = await state.getOrder(token);
      if (!order) return void res.status(404).json({ error: 'RESOURCE_NOT_FOUND' });
      if (!APPROVABLE_STATUSES.has(order.status)) return void res.status(422).json({ error: 'ORDER_NOT_APPROVABLE' });
      const payer = await payerCheck(req, order.id);
      if (!payer.allowed)
        return void res.status(403).json({ error: 'PAYER_NOT_ALLOWED', reason: payer.reason, message: POPUP_TEXT[payer.reason] });
      await apply(token);
      res.json({ orderID: token, payerID: LOCAL_BUYER.payerId });
    });
  }

  return routes;
}

/**
 * The contact calls at the spec's paths (section 7), and the captcha's own: its configuration
 * (which widget the forms show) and ALTCHA challenges. The send calls are for signed-in callers.
 * With reCAPTCHA configured, the contact pages' CSP also admits Google's widget.
 */
import { Router } from 'express';
import { contactSendInput, recaptchaVerifyInput, supportSendInput } from '@quern/core/contact';
import { authedRoute, restRoute, type ContextFactory } from '../http/rest.js';
import { AppError } from '@quern/core';
import { allowRecaptcha } from '../http/web/csp.js';

const clientIp = (req: { ip?: string }) => req.ip ?? 'unknown';
const CONTACT_PAGES = new Set(['/contact', '/support']);

export function contactRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
  // With reCAPTCHA on, the contact pages (served further down by the web app) may load Google's
  // widget; every other page, and every page with ALTCHA, keeps the policy as it is.
  // Middleware, not a route: it answers nothing, it only adjusts the page the web app serves.
  routes.use((req, res, next) => {
    const page = req.method === 'GET' && CONTACT_PAGES.has(req.path.toLowerCase().replace(/\/+$/, ''));
    if (page && createContext(req, res).contact.captchaConfig().provider === 'recaptcha') allowRecaptcha(res);
    next();
  });
  routes.get(
    '/api/captcha/config',
    restRoute(createContext, null, async (ctx) => ctx.contact.captchaConfig()),
  );
  routes.get('/api/captcha/challenge', (req, res, next) => {
    const ctx = createContext(req, res);
    if (ctx.contact.captchaConfig().provider !== 'altcha') {
      next(new AppError('NOT_FOUND', 'errors:notFound'));
      return;
    }
    ctx.contact
      .challenge()
      .then((challenge) => res.set('Cache-Control', 'no-store').json(challenge))
      .catch(next);
  });
  routes.post(
    '/api/auth/recaptcha-verify',
    restRoute(createContext, recaptchaVerifyInput, (ctx, input) =>
      ctx.contact.verify(input.response, clientIp(ctx.http.req), ctx.language),
    ),
  );
  routes.post(
    '/api/contact/send-email',
    authedRoute(createContext, (ctx, session) =>
      ctx.contact.sendContact(session, contactSendInput.parse(ctx.http.req.body ?? {}), clientIp(ctx.http.req), ctx.language),
    ),
  );
  routes.post(
    '/api/support/send-email',
    authedRoute(createContext, (ctx, session) =>
      ctx.contact.sendSupport(session, supportSendInput.parse(ctx.http.req.body ?? {}), clientIp(ctx.http.req), ctx.language),
    ),
  );
  return routes;
}

/**
 * The contact calls at the spec's paths (section 7), and the captcha's own: its configuration
 * (which widget the forms show) and ALTCHA challenges. The send calls are for signed-in callers.
 */
import { Router } from 'express';
import { contactSendInput, recaptchaVerifyInput, supportSendInput } from '@quern/core/contact';
import { authedRoute, restRoute, type ContextFactory } from '../http/rest.js';
import { AppError } from '@quern/core';

const clientIp = (req: { ip?: string }) => req.ip ?? 'unknown';

export function contactRestRoutes(createContext: ContextFactory): Router {
  const routes = Router();
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

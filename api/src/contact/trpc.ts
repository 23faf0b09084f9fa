/**
 * Contact procedures for the web's /contact and /support pages: which captcha to show, ALTCHA
 * challenges, the captcha check, and the two sends; each a thin call into the contact service.
 */
import { contactSendInput, recaptchaVerifyInput, supportSendInput } from '@quern/core/contact';
import { authedProcedure, publicProcedure, router } from '../trpc/init.js';

const clientIp = (ctx: { http: { req: { ip?: string } } }) => ctx.http.req.ip ?? 'unknown';

export const contactRouter = router({
  captchaConfig: publicProcedure.query(({ ctx }) => ctx.contact.captchaConfig()),
  verify: publicProcedure
    .input(recaptchaVerifyInput)
    .mutation(({ ctx, input }) => ctx.contact.verify(input.response, clientIp(ctx), ctx.language)),
  sendContact: authedProcedure
    .input(contactSendInput)
    .mutation(({ ctx, input }) => ctx.contact.sendContact(ctx.session, input, clientIp(ctx), ctx.language)),
  sendSupport: authedProcedure
    .input(supportSendInput)
    .mutation(({ ctx, input }) => ctx.contact.sendSupport(ctx.session, input, clientIp(ctx), ctx.language)),
});

/** The contact service and its captcha, from the composition context (ADR 073). */
import type { CompositionContext } from '../composition.js';
import { createCaptcha } from './captcha.js';
import { createContactService, type ContactService } from './service.js';

// Every request's context carries it as ctx.contact.
declare module '../http/context.js' {
  interface ApiServices {
    contact: ContactService;
  }
}

export const composeContactService = ({ config, commands, redis, appSecret }: CompositionContext) => ({
  contact: createContactService({
    core: commands,
    redis,
    captcha: createCaptcha({
      appSecret,
      redis,
      iterations: config.CAPTCHA_ITERATIONS,
      ...(config.RECAPTCHA_SITE_KEY && config.RECAPTCHA_SECRET
        ? { recaptcha: { siteKey: config.RECAPTCHA_SITE_KEY, secret: config.RECAPTCHA_SECRET, verifyUrl: config.RECAPTCHA_VERIFY_URL } }
        : {}),
    }),
    messagesPerUserHour: config.CONTACT_MESSAGES_PER_USER_HOUR,
    messagesPerIpHour: config.CONTACT_MESSAGES_PER_IP_HOUR,
  }),
});

/**
 * Contact and support as the api offers them (spec sections 7 and 8, issue 14): the captcha
 * check, and the two send calls. A send checks, in order: the session, the input, the hourly
 * limits (per account, per client address and per reply address, peeked so a refused captcha
 * costs nothing), the captcha (spent, so it cannot be replayed), then records
 * SupportMessageSubmitted; the mail worker mails the support mailbox and the sender from there.
 */
import { AppError } from '@quern/core';
import { type ContactSendInput, type SupportDeps, type SupportSendInput, NAME_MAX, submitSupportMessage } from '@quern/core/contact';
import type { Language } from '@quern/core/i18n';
import en from '@quern/core/locales/en/contact.json' with { type: 'json' };
import es from '@quern/core/locales/es/contact.json' with { type: 'json' };
import { errorText } from '@quern/core/i18n';
import { getUser } from '@quern/projections';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Session } from '../identity/sessions.js';
import type { Captcha } from './captcha.js';
import { limitKeyOf } from '../http/client-address.js';

const HOUR_SECONDS = 60 * 60;
const texts: Record<Language, typeof en> = { en, es };

export interface ContactServiceDeps {
  core: SupportDeps;
  redis: Redis;
  captcha: Captcha;
  messagesPerUserHour: number;
  messagesPerIpHour: number;
  /** Key prefix of the limits in Redis. */
  prefix?: string;
}

export type ContactService = ReturnType<typeof createContactService>;

const minutesUntil = (ms: number) => Math.max(1, Math.ceil(ms / 60_000));
const tooMany = (ms: number) => new AppError('RATE_LIMITED', 'errors:tooManyMessages', {}, { minutes: minutesUntil(ms) });
const captchaFailed = () => new AppError('VALIDATION', 'errors:captchaFailed');

/** A display name safe in any header: control characters become spaces, bounded. */
const headerName = (name: string) =>
  name
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, NAME_MAX);

export function createContactService(deps: ContactServiceDeps) {
  const prefix = deps.prefix ?? 'rl';
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: deps.redis, keyPrefix: `${prefix}:${name}`, points, duration: HOUR_SECONDS });
  const perUser = limiter('contact-user', deps.messagesPerUserHour);
  const perIp = limiter('contact-ip', deps.messagesPerIpHour);
  // The address a message answers to: one account cannot use many sessions, nor many accounts one
  // address, to send more than an account may.
  const perAddress = limiter('contact-address', deps.messagesPerUserHour);
  // The captcha check alone (it may call reCAPTCHA's server): generous, but not a free relay.
  const checksPerIp = new RateLimiterRedis({
    storeClient: deps.redis,
    keyPrefix: `${prefix}:captcha-check-ip`,
    points: 60,
    duration: 15 * 60,
  });

  const limitsOf = (userId: string, ip: string, address: string) =>
    [
      [perUser, userId],
      [perIp, limitKeyOf(ip)],
      [perAddress, address.toLowerCase()],
    ] as const;

  const assertUnderLimits = async (userId: string, ip: string, address: string) => {
    for (const [limit, key] of limitsOf(userId, ip, address)) {
      const state = await limit.get(key);
      if (state && state.consumedPoints >= limit.points) throw tooMany(state.msBeforeNext);
    }
  };

  const send = async (
    session: Session,
    ip: string,
    language: Language,
    message: { form: 'contact' | 'support'; fromEmail: string; subject: string; text: string; captcha: string },
  ) => {
    await assertUnderLimits(session.userId, ip, message.fromEmail);
    if (!(await deps.captcha.spend(message.captcha, ip))) throw captchaFailed();
    // Counted once the captcha passed; of two racing sends that both passed the peek, the one
    // over the limit is refused here.
    for (const [limit, key] of limitsOf(session.userId, ip, message.fromEmail)) {
      try {
        await limit.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw tooMany(rejection.msBeforeNext);
        throw rejection;
      }
    }
    const user = await getUser(deps.redis, session.userId);
    const name = headerName(user ? `${user.first_name} ${user.last_name}` : '') || headerName(user?.username ?? '') || session.email;
    await submitSupportMessage(deps.core, {
      form: message.form,
      userId: session.userId,
      fromEmail: message.fromEmail,
      fromName: name,
      subject: message.subject,
      text: message.text,
      language,
    });
    return { message: texts[language].sent.replace('{{email}}', message.fromEmail) };
  };

  return {
    captchaConfig: () => deps.captcha.publicConfig,
    challenge: () => deps.captcha.challenge(),

    /** POST /api/auth/recaptcha-verify: `success` and a readable `message`; spends nothing. */
    async verify(response: string, ip: string, language: Language): Promise<{ success: boolean; message: string }> {
      try {
        await checksPerIp.consume(limitKeyOf(ip));
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw tooMany(rejection.msBeforeNext);
        throw rejection;
      }
      const success = await deps.captcha.check(response, ip);
      return { success, message: success ? texts[language].captchaPassed : errorText('errors:captchaFailed', language) };
    },

    async sendContact(session: Session, input: ContactSendInput, ip: string, language: Language) {
      return send(session, ip, language, { form: 'contact', fromEmail: input.from, ...input });
    },

    async sendSupport(session: Session, input: SupportSendInput, ip: string, language: Language) {
      if (input.userId !== session.userId) throw new AppError('FORBIDDEN', 'errors:supportNotOwnUser');
      return send(session, ip, language, { form: 'support', fromEmail: session.email, ...input });
    },
  };
}

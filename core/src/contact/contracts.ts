/**
 * The contact and support forms' schemas (spec section 5), shared by the web forms and the api.
 * Subject and details are required and bounded; the subject becomes a mail header, so a line
 * break (or any control character) in it is refused, never stripped. The captcha response is
 * required: without it the form answers 'Verify reCAPTCHA' and nothing is sent.
 */
import { z } from 'zod';
import { DETAILS_MAX, HEADER_SAFE, SUBJECT_MAX } from './events.js';

const required = 'errors:allFieldsRequired';

const subject = z
  .string({ error: required })
  .trim()
  .min(1, { error: required, abort: true })
  .max(SUBJECT_MAX, { error: 'errors:contactSubjectTooLong' })
  .regex(HEADER_SAFE, { error: 'errors:contactLineBreak' });

const text = z
  .string({ error: required })
  .trim()
  .min(1, { error: required, abort: true })
  .max(DETAILS_MAX, { error: 'errors:contactDetailsTooLong' });

/** The widget's answer: an ALTCHA payload (under 1 KB) or a reCAPTCHA token (about 2 KB at most). Bounded; its content is checked by the api. */
export const captchaResponse = z
  .string({ error: 'errors:verifyCaptcha' })
  .min(1, { error: 'errors:verifyCaptcha', abort: true })
  .max(4_000, { error: 'errors:captchaFailed' });

export const recaptchaVerifyInput = z.object({ response: captchaResponse }).strict();

/** POST /api/contact/send-email: the signed-in form with 'Your email'. */
export const contactSendInput = z
  .object({
    from: z
      .string({ error: required })
      .trim()
      .min(1, { error: required, abort: true })
      .max(254, { error: 'errors:invalidEmail' })
      .pipe(z.email({ error: 'errors:invalidEmail' })),
    subject,
    text,
    captcha: captchaResponse,
  })
  .strict();
export type ContactSendInput = z.infer<typeof contactSendInput>;

/** POST /api/support/send-email: the support page; userId must be the caller's own. */
export const supportSendInput = z
  .object({
    userId: z.string({ error: required }).min(1, { error: required }).max(200, { error: 'errors:supportNotOwnUser' }),
    subject,
    text,
    captcha: captchaResponse,
  })
  .strict();
export type SupportSendInput = z.infer<typeof supportSendInput>;

/** The fields the web forms check before the captcha (the captcha is checked on its own). */
export const contactFormFields = contactSendInput.omit({ captcha: true });
export const supportFormFields = supportSendInput.omit({ captcha: true, userId: true });

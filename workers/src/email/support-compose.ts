/**
 * The support mails: the message as the support mailbox reads it (in English, the team's
 * language, with the sender's text quoted as they wrote it) and the acknowledgement to the
 * sender in their own language. Both go through layout(), which escapes every value in the HTML.
 */
import type { SupportSubmission } from '@quern/core/contact';
import { layout, type ComposedEmail, type Sender } from './compose.js';
import { emailTexts, fill } from './texts.js';

/** What the mails show of a message: what the sender submitted. */
export type SupportMessageFields = SupportSubmission;

/** The mail to the support mailbox; its links lead to the sender (the reply-to carries them too). */
export function composeSupportMessage(message: SupportMessageFields & Sender): ComposedEmail {
  const t = emailTexts('en').supportMessage;
  const params = { name: message.fromName, email: message.fromEmail, form: message.form, userId: message.userId };
  return layout({
    language: 'en',
    company: message.company,
    subject: fill(t.subject, { subject: message.subject }),
    greeting: fill(t.intro, params),
    paragraphsBeforeLink: [message.text],
    link: { url: `mailto:${message.fromEmail}`, text: message.fromEmail },
    paragraphsAfterLink: [fill(t.replyHint, params)],
  });
}

/**
 * The acknowledgement, to the account's own proven address only (ADR 046): it quotes neither the
 * subject nor the text, so the form cannot make Quern carry someone's words under its name.
 */
export function composeSupportAcknowledgement(
  message: Pick<SupportMessageFields, 'language' | 'fromName'> & Sender & { homeUrl: string },
): ComposedEmail {
  const t = emailTexts(message.language).supportAcknowledgement;
  return layout({
    language: message.language,
    company: message.company,
    subject: t.subject,
    greeting: fill(t.greeting, { name: message.fromName }),
    paragraphsBeforeLink: [t.body],
    link: { url: message.homeUrl, text: t.linkText },
    paragraphsAfterLink: [],
  });
}

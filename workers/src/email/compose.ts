/**
 * Composes the two e-mails from the i18n texts: plain text for every client, and simple HTML with
 * every interpolated value escaped (names are user input).
 */
import type { Language } from '@quern/core/i18n';
import { emailTexts, fill } from './texts.js';

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

interface Layout {
  language: Language;
  subject: string;
  greeting: string;
  paragraphsBeforeLink: string[];
  link: { url: string; text: string };
  paragraphsAfterLink: string[];
}

function layout(parts: Layout): ComposedEmail {
  const common = emailTexts(parts.language);
  const text = [
    parts.greeting,
    ...parts.paragraphsBeforeLink,
    `${parts.link.text}: ${parts.link.url}`,
    ...parts.paragraphsAfterLink,
    common.signature,
    `--\n${common.footer}`,
  ].join('\n\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = [
    `<!doctype html><html lang="${parts.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    paragraph(parts.greeting),
    ...parts.paragraphsBeforeLink.map(paragraph),
    `<p><a href="${escapeHtml(parts.link.url)}">${escapeHtml(parts.link.text)}</a></p>`,
    ...parts.paragraphsAfterLink.map(paragraph),
    paragraph(common.signature),
    `<hr><p style="font-size:small;color:#666">${escapeHtml(common.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: parts.subject, text: `${text}\n`, html };
}

export function composeWelcomeEmail(input: { language: Language; firstName: string; username: string; walletUrl: string }): ComposedEmail {
  const t = emailTexts(input.language).welcome;
  return layout({
    language: input.language,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [t.body, fill(t.details, { username: input.username })],
    link: { url: input.walletUrl, text: t.linkText },
    paragraphsAfterLink: [t.notYou],
  });
}

export function composePasswordResetEmail(input: {
  language: Language;
  firstName: string;
  resetUrl: string;
  minutesValid: number;
}): ComposedEmail {
  const t = emailTexts(input.language).passwordReset;
  return layout({
    language: input.language,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [t.body],
    link: { url: input.resetUrl, text: t.linkText },
    paragraphsAfterLink: [fill(t.expiry, { minutes: input.minutesValid }), t.notYou],
  });
}

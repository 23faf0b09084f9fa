/**
 * `[Sandbox] ` before every e-mail subject a sandbox sends (ADR 050), so nobody takes a test
 * receipt or a test payment's mail for real money, and a mail filter can sort them. Added in one
 * place, the mailer every job sends through, so each job's i18n subject stays as written and no
 * new kind of mail can forget it.
 *
 * The tag is the same in every language, like a mailing list's `[list]` tag: it is a marker that
 * filters match, and "Sandbox" is the mode's name in the Spanish banner too.
 */
import type { QuernMode } from '@quern/core';
import type { Mailer } from '@quern/adapters/mail';

export const SANDBOX_SUBJECT_TAG = '[Sandbox]';

/** The subject as a sandbox sends it; a subject already tagged (a re-sent message) is not tagged twice. */
export const sandboxSubject = (subject: string): string =>
  subject.startsWith(`${SANDBOX_SUBJECT_TAG} `) ? subject : `${SANDBOX_SUBJECT_TAG} ${subject}`;

/** The mailer of `mode`: in a sandbox, every subject tagged; live, the mailer itself. */
export function mailerForMode(mailer: Mailer, mode: QuernMode): Mailer {
  if (mode === 'live') return mailer;
  return {
    send: (message) => mailer.send({ ...message, subject: sandboxSubject(message.subject) }),
    close: () => mailer.close(),
  };
}

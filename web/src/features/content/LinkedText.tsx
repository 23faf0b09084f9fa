import { Fragment } from 'react';
import { contactEmails } from './config.js';

const mailboxes = [contactEmails.supportEmail, contactEmails.salesEmail];

/** Escapes a literal for use inside a RegExp (e-mail addresses contain dots). */
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A capturing group makes split() keep the addresses, at the odd indexes of the result.
const mailboxPattern = new RegExp(`(${mailboxes.map(escapeRegExp).join('|')})`);

/**
 * A sentence from the translations in which Quern's own mailboxes become mailto links. The
 * translations carry plain {{supportEmail}}/{{salesEmail}} placeholders rather than markup, so
 * translators never edit HTML and only addresses we configured can ever become links.
 */
export function LinkedText({ text }: { text: string }) {
  const parts = text.split(mailboxPattern);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={`mailto:${part}`}>
            {part}
          </a>
        ) : (
          <Fragment key={index}>{part}</Fragment>
        ),
      )}
    </>
  );
}

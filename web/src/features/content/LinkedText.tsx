import { Fragment } from 'react';
import { contactEmails } from './config.js';

const mailboxes = [contactEmails.supportEmail, contactEmails.salesEmail];

/** Escapes a literal for use inside a RegExp (e-mail addresses contain dots). */
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A capturing group makes split() keep the addresses, at the odd indexes of the result.
const mailboxPattern = new RegExp(`(${mailboxes.map(escapeRegExp).join('|')})`);

interface Piece {
  text: string;
  /** Where the piece starts in the sentence: unique among non-empty pieces, so a stable key. */
  start: number;
  isMailbox: boolean;
}

/** Splits a sentence into plain text and mailbox pieces, dropping the empty ones split() leaves. */
function splitOnMailboxes(sentence: string): Piece[] {
  let start = 0;
  return sentence.split(mailboxPattern).flatMap((text, index) => {
    const piece = { text, start, isMailbox: index % 2 === 1 };
    start += text.length;
    return text === '' ? [] : [piece];
  });
}

/**
 * A sentence from the translations in which Quern's own mailboxes become mailto links. The
 * translations carry plain {{supportEmail}}/{{salesEmail}} placeholders rather than markup, so
 * translators never edit HTML and only addresses we configured can ever become links.
 */
export function LinkedText({ text }: { text: string }) {
  return splitOnMailboxes(text).map((piece) =>
    piece.isMailbox ? (
      <a key={piece.start} href={`mailto:${piece.text}`}>
        {piece.text}
      </a>
    ) : (
      <Fragment key={piece.start}>{piece.text}</Fragment>
    ),
  );
}

/**
 * Test support: a small RFC 5322/MIME reader (mailparser does not install here). It unfolds
 * headers, decodes encoded words and reads the text/plain part of a multipart message, which is
 * all the tests need to prove a message is well-formed and says the right thing.
 */

export interface ParsedEml {
  headers: Map<string, string>;
  subject: string;
  to: string;
  messageId: string;
  text: string;
}

function splitHead(raw: string): { head: string; body: string } {
  const normalized = raw.replace(/\r\n/g, '\n');
  const end = normalized.indexOf('\n\n');
  if (end < 0) throw new Error('No blank line between headers and body');
  return { head: normalized.slice(0, end), body: normalized.slice(end + 2) };
}

function parseHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`Malformed header line ${JSON.stringify(line)}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

const decodeQuotedPrintable = (value: string): Buffer => {
  const soft = value.replace(/=\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i += 1) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] as string, 'utf8'));
  }
  return Buffer.from(bytes);
};

/** =?UTF-8?Q?...?= and =?UTF-8?B?...?= words, as nodemailer writes non-ASCII subjects. */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    default:
      return body;
  }
}

function textPart(headers: Map<string, string>, body: string): string {
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!contentType.toLowerCase().startsWith('multipart/') || !boundary) return decodeBody(body, headers.get('content-transfer-encoding'));
  for (const part of body.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const { head, body: partBody } = splitHead(part.replace(/^\n/, ''));
    const partHeaders = parseHeaders(head);
    if ((partHeaders.get('content-type') ?? '').toLowerCase().startsWith('text/plain')) {
      return decodeBody(partBody.replace(/\n$/, ''), partHeaders.get('content-transfer-encoding'));
    }
  }
  throw new Error('No text/plain part');
}

export function parseEml(raw: string): ParsedEml {
  const { head, body } = splitHead(raw);
  const headers = parseHeaders(head);
  const required = (name: string) => {
    const value = headers.get(name);
    if (value === undefined) throw new Error(`Missing ${name} header`);
    return value;
  };
  return {
    headers,
    subject: decodeWords(required('subject')),
    to: required('to'),
    messageId: required('message-id'),
    text: textPart(headers, body),
  };
}

/** The token of the e-mail verification link a mail carries (`/verify-email?t=`, ADR 046), if any. */
export function verificationTokenIn(raw: string): string | undefined {
  return verificationTokenInText(parseEml(raw).text);
}

/** The same, from a mail's decoded text part. */
export function verificationTokenInText(text: string): string | undefined {
  return /\/verify-email\?t=([A-Za-z0-9._-]+)/.exec(text)?.[1];
}

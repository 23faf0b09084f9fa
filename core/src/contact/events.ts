/**
 * Support messages (issue 14): one stream per message, `support-<messageId>`. The api records a
 * message once its captcha passed ('no_stream', so a retry cannot record it twice); the mail
 * worker reads it, mails the support mailbox and the sender, and closes it with SupportMessageSent.
 * Everything that becomes a mail header is refused with CR or LF at the door (contracts.ts) and
 * again here, so a message read from the log can never smuggle a header.
 */
import { z } from 'zod';
import { languages } from '../i18n/index.js';

export const SUPPORT_STREAM_PREFIX = 'support-';
export const supportStream = (messageId: string): string => `${SUPPORT_STREAM_PREFIX}${messageId}`;

export const SUPPORT_MESSAGE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const SUBJECT_MAX = 200;
export const DETAILS_MAX = 5000;
export const NAME_MAX = 120;

/** No control characters at all in anything that may reach a header (CR, LF, NUL, tabs). */
export const HEADER_SAFE = /^[^\p{Cc}]*$/u;

export interface SupportMessageSubmitted {
  type: 'SupportMessageSubmitted';
  data: {
    messageId: string;
    /** 'contact' is the form with 'Your email'; 'support' uses the account's own address. */
    form: 'contact' | 'support';
    userId: string;
    /** The address replies go to (reply-to of the support mail, recipient of the acknowledgement). */
    fromEmail: string;
    fromName: string;
    subject: string;
    text: string;
    language: 'en' | 'es';
    submittedAt: string;
  };
}

export interface SupportMessageSent {
  type: 'SupportMessageSent';
  /** No acknowledgementMessageId when the sender's account had no proven address to acknowledge to (ADR 046). */
  data: { messageId: string; supportMessageId: string; acknowledgementMessageId?: string; sentAt: string };
}

export type SupportEvent = SupportMessageSubmitted | SupportMessageSent;

const headerText = (max: number) => z.string().max(max).regex(HEADER_SAFE);
const messageId = z.string().regex(SUPPORT_MESSAGE_ID_PATTERN);
const time = z.string().min(1).max(40);

const schemas = {
  SupportMessageSubmitted: z.object({
    messageId,
    form: z.enum(['contact', 'support']),
    userId: z.string().min(1).max(200),
    fromEmail: z.email().max(254).regex(HEADER_SAFE),
    fromName: headerText(NAME_MAX),
    subject: headerText(SUBJECT_MAX).min(1),
    text: z.string().min(1).max(DETAILS_MAX),
    language: z.enum(languages),
    submittedAt: time,
  }),
  SupportMessageSent: z.object({
    messageId,
    supportMessageId: z.string().min(1).max(998),
    acknowledgementMessageId: z.string().min(1).max(998).optional(),
    sentAt: time,
  }),
} as const;

export const supportEventTypes = Object.keys(schemas) as SupportEvent['type'][];
export const isSupportEventType = (type: string): type is SupportEvent['type'] => Object.hasOwn(schemas, type);

/** A recorded event as a SupportEvent, or undefined when it is not one or has not its shape. */
export function toSupportEvent(recorded: { type: string; data: unknown }): SupportEvent | undefined {
  if (!isSupportEventType(recorded.type)) return undefined;
  const parsed = schemas[recorded.type].safeParse(recorded.data);
  return parsed.success ? ({ type: recorded.type, data: parsed.data } as SupportEvent) : undefined;
}

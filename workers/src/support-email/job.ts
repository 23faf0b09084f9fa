/**
 * The support e-mail job (issue 14): mails a SupportMessageSubmitted to the support mailbox,
 * reply-to the sender, and an acknowledgement to the sender in their language, then records
 * SupportMessageSent on the message's stream. Idempotent through the log like the welcome mail:
 * a re-run that finds SupportMessageSent sends nothing; a crash between sending and recording can
 * send again, with the same Message-IDs.
 */
import type { EventStore } from '@quern/core';
import { supportStream, toSupportEvent, type SupportMessageSent, type SupportMessageSubmitted } from '@quern/core/contact';
import type { EmailMessage } from '@quern/adapters/mail';
import { UnrecoverableError } from 'bullmq';
import { composeSupportAcknowledgement, composeSupportMessage } from '../email/support-compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { verifiedEmailOf } from '../user-stream.js';
import { supportEmailJobId, supportEmailPayload } from './payload.js';

export interface SupportEmailJobDeps extends EmailJobDeps {
  /** SUPPORT_EMAIL: where the messages go. */
  supportEmail: string;
}

const isWrongExpectedRevision = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'WRONG_EXPECTED_REVISION';

async function readMessage(store: EventStore, messageId: string) {
  const records = await store.readStream(supportStream(messageId));
  const events = records.map((record) => toSupportEvent(record));
  const submitted = events.find((event): event is SupportMessageSubmitted => event?.type === 'SupportMessageSubmitted');
  const sent = events.find((event): event is SupportMessageSent => event?.type === 'SupportMessageSent');
  return { submitted, sent, last: records.at(-1) };
}

export async function sendSupportEmail(data: unknown, deps: SupportEmailJobDeps): Promise<EmailJobResult> {
  const { messageId } = parsePayload(supportEmailPayload, data);
  const { submitted, sent, last } = await readMessage(deps.store, messageId);
  if (!submitted || !last) throw new UnrecoverableError(`No readable SupportMessageSubmitted in ${supportStream(messageId)}`);
  if (sent) return { outcome: 'already-sent', messageId: sent.data.supportMessageId };

  const message = submitted.data;
  const key = supportEmailJobId(messageId);
  // The mailer hands every field to nodemailer, which writes Reply-To with the name encoded;
  // the address and the name were refused at the door if they held a line break.
  const toSupport: EmailMessage = {
    to: deps.supportEmail,
    replyTo: { name: message.fromName, address: message.fromEmail },
    ...composeSupportMessage({ ...message, company: companyOf(deps) }),
    messageKey: `${key}.support`,
  };
  const supportMail = await deps.mailer.send(toSupport);
  // The acknowledgement goes to the sender's account, at the address its owner proved, whatever
  // address the contact form named; an account that proved none gets none (ADR 046).
  const acknowledgeTo = await verifiedEmailOf(deps.store, message.userId);
  const acknowledgement = acknowledgeTo
    ? await deps.mailer.send({
        to: acknowledgeTo,
        ...composeSupportAcknowledgement({ ...message, company: companyOf(deps), homeUrl: `${deps.publicUrl}/account` }),
        messageKey: `${key}.ack`,
      })
    : undefined;
  const completion: SupportMessageSent = {
    type: 'SupportMessageSent',
    data: {
      messageId,
      supportMessageId: supportMail.messageId,
      ...(acknowledgement ? { acknowledgementMessageId: acknowledgement.messageId } : {}),
      sentAt: deps.clock.now().toISOString(),
    },
  };
  try {
    await deps.store.append(supportStream(messageId), [completion], last.revision);
  } catch (error) {
    // Another run recorded it first: one SupportMessageSent, whichever run it was.
    if (!isWrongExpectedRevision(error)) throw error;
    const again = await readMessage(deps.store, messageId);
    if (!again.sent) throw error;
    return { outcome: 'already-sent', messageId: again.sent.data.supportMessageId };
  }
  return { outcome: 'sent', messageId: supportMail.messageId };
}

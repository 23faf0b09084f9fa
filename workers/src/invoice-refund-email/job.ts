/**
 * The refund claim e-mail (ADR 087, en/es): the payer of an invoice gets the single-use link where
 * they name the millix address to refund to. The link is rebuilt from the refund id with the app
 * secret, so nothing secret is in Redis or the log. Idempotent through the log: the invoice records
 * InvoiceRefundEmailSent once, and a refund already claimed or canceled is not mailed (its link
 * claims nothing more). The language is the merchant's request's, as the log records it.
 */
import { defaultLanguage } from '@quern/core/i18n';
import { loadUser } from '@quern/core/identity';
import { invoiceStream, readInvoice, recordInvoiceRefundEmailSent, refundClaimUrl } from '@quern/core/invoices';
import { ERASED } from '@quern/core/personal-data';
import { UnrecoverableError } from 'bullmq';
import { composeInvoiceRefundEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { languageIn } from '../language.js';
import { invoiceRefundEmailPayload, invoiceRefundMessageKey } from './payload.js';

export async function sendInvoiceRefundEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { invoiceId, refundId } = parsePayload(invoiceRefundEmailPayload, data);
  const invoice = await readInvoice(deps, invoiceId);
  const refund = invoice?.refunds.get(refundId);
  // The job comes from InvoiceRefundCreated on this stream; without it no retry can mail a link.
  if (!invoice || !refund) throw new UnrecoverableError(`Invoice ${invoiceId} has no refund ${refundId}`);
  if (refund.emailedAt !== undefined) return { outcome: 'already-sent', messageId: '' };
  const to = invoice.terms.customerEmail;
  if (refund.claim || refund.canceledAt !== undefined || to === undefined || to === ERASED) return { outcome: 'not-needed' };

  const created = (await deps.store.readStream(invoiceStream(invoiceId), {})).find(
    (event) => event.type === 'InvoiceRefundCreated' && (event.data as { refundId?: unknown }).refundId === refundId,
  );
  const language = (created && languageIn(created)) ?? defaultLanguage;
  const merchant = (await loadUser(deps, invoice.merchantUserId)).state;
  if (!merchant) throw new UnrecoverableError(`The merchant of invoice ${invoiceId} is not registered`);
  const name = `${merchant.firstName} ${merchant.lastName}`.trim();
  const mail = composeInvoiceRefundEmail({
    company: companyOf(deps),
    language,
    merchant: name && name !== `${ERASED} ${ERASED}` ? `${name} (@${merchant.username})` : `@${merchant.username}`,
    mlx: refund.amountMlx.toString(),
    reference: invoice.terms.reference,
    description: invoice.terms.description,
    claimUrl: refundClaimUrl(deps.publicUrl, deps.appSecret, refundId),
  });
  const sent = await deps.mailer.send({ to, ...mail, messageKey: invoiceRefundMessageKey(refundId) });
  // Two overlapping runs may both send (same Message-ID); core records the e-mail once.
  await recordInvoiceRefundEmailSent(deps, invoiceId, { refundId, messageId: sent.messageId });
  return { outcome: 'sent', messageId: sent.messageId };
}

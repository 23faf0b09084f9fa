/**
 * The purchase receipt e-mail job (en/es): after PurchaseCredited, the buyer gets the MLX
 * credited, the USD paid, the rate, the order and PayPal transaction ids and the date. Idempotent
 * through the log like the welcome e-mail: PurchaseReceiptSent on the purchase stream (recorded
 * once by core) means nothing is sent again. A crash between sending and recording can still
 * send a second mail, with the same Message-ID (delivery is at least once).
 *
 * The language is the buyer's as the log knows it: the order's request, else the registration's
 * (the metadata the welcome and reset e-mails read), else English.
 */
import { defaultLanguage } from '@quern/core/i18n';
import type { UserRegistered } from '@quern/core/identity';
import { loadPurchase, purchaseStream, recordPurchaseReceipt } from '@quern/core/purchases';
import { receiptPath } from '@quern/core/receipts';
import { UnrecoverableError } from 'bullmq';
import { composePurchaseReceiptEmail } from '../email/compose.js';
import { companyOf, type EmailJobDeps, type EmailJobResult } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { languageIn } from '../language.js';
import { emailVerifiedIn, readUserStream } from '../user-stream.js';
import { purchaseReceiptEmailPayload, purchaseReceiptMessageKey } from './payload.js';

export async function sendPurchaseReceiptEmail(data: unknown, deps: EmailJobDeps): Promise<EmailJobResult> {
  const { orderId } = parsePayload(purchaseReceiptEmailPayload, data);
  const { state } = await loadPurchase(deps, orderId);
  const { order, capture, credit } = state;
  // The job comes from PurchaseCredited in this stream; without it no retry can send a receipt.
  if (!order || !capture || !credit) throw new UnrecoverableError(`Order ${orderId} is not credited`);
  if (state.receipt) return { outcome: 'already-sent', messageId: state.receipt.messageId };

  const userEvents = await readUserStream(deps.store, order.buyerUserId);
  const registered = userEvents.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new UnrecoverableError(`Buyer ${order.buyerUserId} of order ${orderId} is not registered`);
  // Nothing but the verification goes to an address its owner never proved (ADR 046).
  if (!emailVerifiedIn(userEvents)) return { outcome: 'unverified' };
  const [ordered] = await deps.store.readStream(purchaseStream(orderId), { maxCount: 1 });
  const language = (ordered && languageIn(ordered)) ?? languageIn(registered) ?? defaultLanguage;

  const user = registered.data as UserRegistered['data'];
  const mail = composePurchaseReceiptEmail({
    company: companyOf(deps),
    language,
    firstName: user.firstName,
    receiptUrl: `${deps.publicUrl}${receiptPath(credit.transferId)}`,
    mlx: credit.mlx,
    usdCents: capture.usdCents,
    usdPerMlx: order.usdPerMlx,
    orderId,
    captureId: capture.captureId,
    creditedAt: credit.creditedAt,
  });
  const sent = await deps.mailer.send({ to: user.email, ...mail, messageKey: purchaseReceiptMessageKey(orderId) });
  // Two overlapping runs may both send (same Message-ID); core records the receipt once.
  await recordPurchaseReceipt(deps, { orderId, messageId: sent.messageId });
  return { outcome: 'sent', messageId: sent.messageId };
}

// Proves the purchase receipt e-mail on a real log and a real SMTP server: a credited order gets one receipt with its figures in the buyer's language, PurchaseReceiptSent records it so a re-run (or an overlapping run) sends nothing more, and an order that is not credited fails for good.
import { systemClock } from '@quern/core';
import { ensurePurchaseCredited, purchaseStream, recordCaptureResult } from '@quern/core/purchases';
import { createMailer, type Mailer } from '@quern/adapters/mail';
import { captureLog } from '@quern/test-support/log';
import { startTestSmtpServer, type TestSmtpServer } from '@quern/test-support/smtp';
import { UnrecoverableError } from 'bullmq';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmailJobDeps } from '../job/email-job.js';
import { TEST_APP_SECRET, TEST_PUBLIC_URL } from '../../test/pipeline.js';
import { approvedOrder, preparePurchases, registerBuyer } from '../../test/purchases.js';
import { openTempStore, type TempStore } from '../../test/store.js';
import { sendPurchaseReceiptEmail } from './job.js';
import { transferTermsBook } from '@quern/core/transfer-references';

let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let deps: EmailJobDeps;

beforeEach(async () => {
  temp = openTempStore();
  smtp = await startTestSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, dataDir: temp.dir, from: 'Quern <no-reply@quern.example>' });
  deps = {
    store: temp.store,
    mailer,
    publicUrl: TEST_PUBLIC_URL,
    appSecret: TEST_APP_SECRET,
    clock: systemClock,
    logger: captureLog().logger,
  };
  await preparePurchases(temp.store);
});
afterEach(async () => {
  await mailer.close();
  await smtp.stop();
  await temp.dispose();
});

/** An order for a new buyer, captured and credited; gives the buyer and the order. */
async function creditedOrder(orderId: string, index: number, language?: 'en' | 'es') {
  const buyer = await registerBuyer(temp.store, index, language);
  await approvedOrder(temp.store, buyer.userId, orderId);
  const core = { store: temp.store, clock: systemClock, transferTerms: transferTermsBook };
  await recordCaptureResult(core, { orderId, result: { status: 'completed', captureId: `CAP${orderId}`, usdCents: 1000n } });
  await ensurePurchaseCredited(core, { orderId });
  return buyer;
}

const receipts = async (orderId: string) =>
  (await temp.store.readStream(purchaseStream(orderId))).filter((e) => e.type === 'PurchaseReceiptSent');

describe('purchase receipt e-mail', () => {
  it('given a credited order, when the job runs twice, then the buyer receives one receipt with its figures and the log records it once', async () => {
    const buyer = await creditedOrder('ORDER_1', 1);
    const first = await sendPurchaseReceiptEmail({ orderId: 'ORDER_1' }, deps);
    const again = await sendPurchaseReceiptEmail({ orderId: 'ORDER_1' }, deps);

    expect(first.outcome).toBe('sent');
    expect(again).toEqual({ outcome: 'already-sent', messageId: first.outcome === 'sent' ? first.messageId : '' });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail?.envelopeTo).toEqual([buyer.email]);
    expect(mail?.parsed.subject).toBe('Your Quern receipt: 800,000 MLX');
    expect(mail?.parsed.messageId).toBe('<purchase-receipt-ORDER.1@quern.example>');
    for (const line of [
      'MLX credited: 800,000 MLX',
      'Paid: 10.00 USD',
      'Rate: 1 USD = 80,000 MLX',
      'Order: ORDER_1',
      'PayPal transaction: CAPORDER_1',
    ])
      expect(mail?.parsed.text).toContain(line);
    expect(mail?.parsed.text).toContain(`Hello ${buyer.firstName},`);
    expect((await receipts('ORDER_1')).map((e) => e.data.messageId)).toEqual([mail?.parsed.messageId]);
  });

  it('given a buyer who registered in Spanish, when the receipt is sent, then it is in Spanish', async () => {
    await creditedOrder('ORDER2', 2, 'es');
    await sendPurchaseReceiptEmail({ orderId: 'ORDER2' }, deps);
    expect(smtp.received[0]?.parsed.subject).toBe('Su recibo de Quern: 800.000 MLX');
    expect(smtp.received[0]?.parsed.text).toContain('Importe pagado: 10,00 USD');
  });

  it('given two runs of the same job at once, when both pass the check, then the log still records one receipt', async () => {
    await creditedOrder('ORDER3', 3);
    const outcomes = await Promise.all([
      sendPurchaseReceiptEmail({ orderId: 'ORDER3' }, deps),
      sendPurchaseReceiptEmail({ orderId: 'ORDER3' }, deps),
    ]);
    expect(outcomes.every((o) => o.outcome === 'sent' || o.outcome === 'already-sent')).toBe(true);
    expect(await receipts('ORDER3')).toHaveLength(1);
  });

  it('given an order not credited, an unknown order or a malformed payload, when the job runs, then it fails for good and sends nothing', async () => {
    const buyer = await registerBuyer(temp.store, 4);
    await approvedOrder(temp.store, buyer.userId, 'ORDER4');
    for (const data of [{ orderId: 'ORDER4' }, { orderId: 'NOPE' }, { orderId: 'a:b' }, {}])
      await expect(sendPurchaseReceiptEmail(data, deps)).rejects.toBeInstanceOf(UnrecoverableError);
    expect(smtp.received).toHaveLength(0);
  });
});

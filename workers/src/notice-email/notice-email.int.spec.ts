// Proves the notice e-mails of issue 25 on a real log, real Redis and a real SMTP server, through the dispatcher and the workers: a checkout payment mails the shopper a receipt and the merchant a "you were paid", a transfer and a refund mail their recipient, two-factor on/off and a new API key mail a security notice; each once, to the right address, in the recipient's language, and never again on a re-run or a replay of the log; a deleted, unverified or stale recipient gets nothing.
import { randomUUID } from 'node:crypto';
import { systemClock, type EventStore, type RecordedEvent } from '@quern/core';
import { checkoutStream, parseCheckoutOrderId, payCheckout } from '@quern/core/checkout';
import { identityKeyStream, normalizeUsername, userStream } from '@quern/core/identity';
import { merchantKeysStream } from '@quern/core/merchant-keys';
import { createRefund } from '@quern/core/refunds';
import { executeTransfer, openUserWallet, walletAddressOf } from '@quern/core/wallet';
import type { Mailer } from '@quern/adapters/mail';
import type { TestSmtpServer } from '@quern/test-support/smtp';
import { UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmailJobDeps } from '../job/email-job.js';
import { closeEmailWorld, openEmailWorld } from '../../test/email-world.js';
import { registerUser, type TestUser } from '../../test/identity-events.js';
import { captureLog, deleteKeys, eventually, startPipeline, TEST_APP_SECRET, TEST_PUBLIC_URL, type Pipeline } from '../../test/pipeline.js';
import { billingDeps, fund, prepareBilling } from '../../test/subscriptions.js';
import type { TempStore } from '../../test/store.js';
import { NOTICE_MAX_AGE_MS, sendNoticeEmail } from './job.js';
import { NOTICE_EMAIL_DONE, type NoticeKind } from './payload.js';
import { transferTermsBook } from '@quern/core/transfer-references';

const redisUrl = process.env.REDIS_URL as string;
let temp: TempStore;
let smtp: TestSmtpServer;
let mailer: Mailer;
let redis: Redis;
let prefix: string;
let pipeline: Pipeline | undefined;

beforeEach(async () => {
  ({ temp, smtp, mailer, redis, prefix } = await openEmailWorld(redisUrl));
  await prepareBilling(temp.store, systemClock);
});
afterEach(async () => {
  await pipeline?.stop();
  pipeline = undefined;
  await closeEmailWorld({ temp, smtp, mailer, redis, prefix });
});

const start = () => {
  pipeline = startPipeline({ store: temp.store, redis, redisUrl, mailer, prefix, logger: captureLog().logger });
};
const jobDeps = (): EmailJobDeps => ({
  store: temp.store,
  mailer,
  publicUrl: TEST_PUBLIC_URL,
  appSecret: TEST_APP_SECRET,
  clock: systemClock,
  logger: captureLog().logger,
});

type Member = TestUser & { username: string };

/** A registered, verified user with a wallet (and its username claimed, so checkouts can name it). */
async function member(index: number, language?: 'en' | 'es', options: { verified?: boolean } = {}): Promise<Member> {
  const user = await registerUser(temp.store, index, language, options);
  const [registered] = await temp.store.readStream(userStream(user.userId), { maxCount: 1 });
  const username = String(registered?.data.username);
  await temp.store.append(
    identityKeyStream('username', normalizeUsername(username)),
    [
      {
        type: 'IdentityKeyClaimed',
        data: { kind: 'username', value: normalizeUsername(username), userId: user.userId, claimedAt: new Date().toISOString() },
      },
    ],
    'no_stream',
  );
  await openUserWallet(billingDeps(temp.store, systemClock), user.userId);
  return { ...user, username };
}

/** The notices mailed to `email` (the welcome mail every registration gets is not one). */
const mailsTo = (email: string) =>
  smtp.received.filter((mail) => mail.envelopeTo.includes(email) && mail.parsed.messageId.startsWith('<notice-'));
const withSubject = (email: string, subject: string) => mailsTo(email).filter((mail) => mail.parsed.subject === subject);

async function waitForMail(email: string, subject: string) {
  await eventually(() => withSubject(email, subject).length > 0, 15_000, `"${subject}" to a test user`);
  const [mail] = withSubject(email, subject);
  return mail as NonNullable<typeof mail>;
}

/** Every NoticeEmailDone recorded so far, from the whole log. */
async function doneNotices(): Promise<RecordedEvent[]> {
  const all = await temp.store.readAll({ maxCount: 10_000 });
  return all.filter((event) => event.type === NOTICE_EMAIL_DONE);
}

const payloadFor = (kind: NoticeKind, event: RecordedEvent) => ({ kind, streamId: event.streamId, revision: event.revision.toString() });

async function paidCheckout(shopper: Member, merchant: Member, reference?: string) {
  const result = await payCheckout(
    { store: temp.store, clock: systemClock, transferTerms: transferTermsBook },
    {
      shopperUserId: shopper.userId,
      to: merchant.username,
      priceMlx: 250_000n,
      cart: [{ name: 'Tea', priceMlx: 125_000n, quantity: 2n }],
      ...(reference ? { reference } : {}),
    },
  );
  if (result.kind !== 'paid') throw new Error('the checkout was not paid');
  return result.payment.orderId;
}

async function paidEventOf(orderId: string): Promise<RecordedEvent> {
  const { intentId } = parseCheckoutOrderId(orderId) ?? { intentId: '' };
  const events = await temp.store.readStream(checkoutStream(intentId));
  return events.find((event) => event.type === 'CheckoutPaid' && event.data.orderId === orderId) as RecordedEvent;
}

describe('checkout payment notices', () => {
  it('given a Spanish shopper paying an English merchant, when dispatched, then the shopper gets one Spanish receipt and the merchant one English "you were paid", and a replay of the log sends nothing more', async () => {
    start();
    const shopper = await member(1, 'es');
    const merchant = await member(2, 'en');
    await fund(billingDeps(temp.store, systemClock), shopper.userId, 1_000_000n);
    const orderId = await paidCheckout(shopper, merchant, 'INV-1042');

    const receipt = await waitForMail(shopper.email, `[Sandbox] Su pago a ${merchant.username}: 250.000 MLX`);
    for (const line of [
      `Tienda: ${merchant.username}`,
      'Referencia: INV-1042',
      'Importe: 250.000 MLX',
      'Comisión: 0 MLX',
      `Pedido: ${orderId}`,
      // The receipt's printable page (ADR 091), named by the payment's transfer.
      `Vea o imprima su recibo: ${TEST_PUBLIC_URL}/receipts/checkout-${orderId}`,
      `Hola, ${shopper.firstName}:`,
    ])
      expect(receipt.parsed.text).toContain(line);
    const paid = await waitForMail(merchant.email, `[Sandbox] You were paid 250,000 MLX by ${shopper.username}`);
    for (const line of [`Paid by: ${shopper.username}`, 'Reference: INV-1042', 'Amount: 250,000 MLX', `${TEST_PUBLIC_URL}/payments`])
      expect(paid.parsed.text).toContain(line);
    // The checkout's own credit is announced by the "you were paid" alone, never as money received.
    expect(mailsTo(merchant.email)).toHaveLength(1);

    // A replay: Redis loses every job and the checkpoint, the dispatcher re-derives the open work.
    await eventually(async () => (await doneNotices()).length >= 3, 15_000, 'three notices recorded');
    await pipeline?.stop();
    await deleteKeys(redis, prefix);
    start();
    const again = await sendNoticeEmail(payloadFor('checkoutReceipt', await paidEventOf(orderId)), jobDeps());
    expect(again).toEqual({ outcome: 'already-done', messageId: receipt.parsed.messageId });
    await eventually(() => (pipeline?.dispatcher.status().rederivations ?? 0) >= 1, 15_000, 'the log re-derived');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(withSubject(shopper.email, receipt.parsed.subject ?? '')).toHaveLength(1);
    expect(mailsTo(merchant.email)).toHaveLength(1);
  });

  it('given two runs of the same receipt at once, when both pass the check, then the log records the notice once', async () => {
    const shopper = await member(3);
    const merchant = await member(4);
    await fund(billingDeps(temp.store, systemClock), shopper.userId, 1_000_000n);
    const paid = await paidEventOf(await paidCheckout(shopper, merchant));
    const outcomes = await Promise.all([
      sendNoticeEmail(payloadFor('checkoutReceipt', paid), jobDeps()),
      sendNoticeEmail(payloadFor('checkoutReceipt', paid), jobDeps()),
    ]);
    expect(outcomes.map((o) => o.outcome).sort()).toEqual(expect.arrayContaining(['sent']));
    expect((await doneNotices()).filter((event) => event.data.kind === 'checkoutReceipt')).toHaveLength(1);
    expect(withSubject(shopper.email, `Your payment to ${merchant.username}: 250,000 MLX`)[0]?.parsed.text).toContain(
      'Reference: none given',
    );
  });
});

describe('money received and refund notices', () => {
  it('given a transfer from another user and a deposit-like credit from genesis, when dispatched, then each payee hears once, naming the payer by username or address', async () => {
    start();
    const payer = await member(5, 'en');
    const payee = await member(6, 'es');
    const deps = billingDeps(temp.store, systemClock);
    await fund(deps, payer.userId, 2_000_000n);
    const fromGenesis = await waitForMail(payer.email, '[Sandbox] You received 2,000,000 MLX');
    expect(fromGenesis.parsed.text).toMatch(/From: \S+/);

    await executeTransfer(deps, payer.userId, {
      type: 'ReserveTransfer',
      data: {
        transferId: `send-${randomUUID()}`,
        toAddress: (await walletAddressOf(deps, payee.userId)) ?? '',
        toWalletId: payee.userId,
        amountMlx: 12_500n,
        feeMlx: 1000n,
      },
    });
    const received = await waitForMail(payee.email, '[Sandbox] Ha recibido 12.500 MLX');
    expect(received.parsed.text).toContain(`${payer.username} le envió 12.500 MLX.`);
    expect(received.parsed.text).toContain(`De: ${payer.username}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(payee.email)).toHaveLength(1);
    expect(mailsTo(payer.email)).toHaveLength(1);
  });

  it('given a confirmed network deposit to a Spanish user, when the job runs, then one Spanish deposit notice is sent, and none on a re-run', async () => {
    const payee = await member(15, 'es');
    await temp.store.append(
      `wallet-${payee.userId}`,
      [
        {
          type: 'DepositConfirmed',
          data: { walletId: payee.userId, depositId: 'h1:0', amountMlx: '300000', confirmedAt: new Date().toISOString() },
        },
      ],
      'any',
    );
    const [confirmed] = (await temp.store.readStream(`wallet-${payee.userId}`)).filter((event) => event.type === 'DepositConfirmed');
    const payload = payloadFor('moneyReceived', confirmed as RecordedEvent);
    expect(await sendNoticeEmail(payload, jobDeps())).toMatchObject({ outcome: 'sent' });
    expect(await sendNoticeEmail(payload, jobDeps())).toMatchObject({ outcome: 'already-done' });
    const mails = mailsTo(payee.email);
    expect(mails.map((mail) => mail.parsed.subject)).toEqual(['Ha recibido 300.000 MLX']);
    expect(mails[0]?.parsed.text).toContain('Un depósito de 300.000 MLX desde la red millix está confirmado');
  });

  it('given PayPal refunding one purchase and reversing another, when the jobs run, then the Spanish buyer hears of each once, with the MLX taken back', async () => {
    const buyer = await member(17, 'es');
    const now = new Date().toISOString();
    const purchase = async (orderId: string, returned: { type: 'PurchaseRefunded' | 'PurchaseReversed'; mlxReturned: string }) => {
      const ordered = {
        type: 'PurchaseOrdered',
        data: {
          orderId,
          buyerUserId: buyer.userId,
          usdCents: '1000',
          usdPerMlx: '0.00001',
          mlx: '1000000',
          provider: 'paypal',
          orderedAt: now,
        },
      };
      const back =
        returned.type === 'PurchaseRefunded'
          ? {
              orderId,
              captureId: `C-${orderId}`,
              refundId: `R-${orderId}`,
              usdCents: '1000',
              mlxReturned: returned.mlxReturned,
              refundedAt: now,
            }
          : {
              orderId,
              captureId: `C-${orderId}`,
              reversalId: `V-${orderId}`,
              usdCents: '1000',
              mlxReturned: returned.mlxReturned,
              reversedAt: now,
            };
      await temp.store.append(`purchase-${orderId}`, [ordered, { type: returned.type, data: back }], 'no_stream');
      const [source] = (await temp.store.readStream(`purchase-${orderId}`)).filter((event) => event.type === returned.type);
      return payloadFor('purchaseRefund', source as RecordedEvent);
    };
    const refunded = await purchase('PAYPAL-REFUNDED-1', { type: 'PurchaseRefunded', mlxReturned: '1000000' });
    const reversed = await purchase('PAYPAL-REVERSED-1', { type: 'PurchaseReversed', mlxReturned: '250000' });
    for (const payload of [refunded, reversed]) {
      expect(await sendNoticeEmail(payload, jobDeps())).toMatchObject({ outcome: 'sent' });
      expect(await sendNoticeEmail(payload, jobDeps())).toMatchObject({ outcome: 'already-done' });
    }
    const mails = mailsTo(buyer.email);
    expect(mails.map((mail) => mail.parsed.subject).sort()).toEqual([
      'Se reembolsó su compra de 10,00 USD',
      'Se revirtió su compra de 10,00 USD',
    ]);
    const refundMail = withSubject(buyer.email, 'Se reembolsó su compra de 10,00 USD')[0];
    expect(refundMail?.parsed.text).toContain('Los 1.000.000 MLX que compró salieron de nuevo de su billetera de Quern.');
    expect(refundMail?.parsed.text).toContain('PAYPAL-REFUNDED-1');
    const reversalMail = withSubject(buyer.email, 'Se revirtió su compra de 10,00 USD')[0];
    expect(reversalMail?.parsed.text).toContain('una disputa o un contracargo');
    expect(reversalMail?.parsed.text).toContain('Los 250.000 MLX que compró');
  });

  it('given a merchant refunding part of a checkout, when dispatched, then the Spanish shopper gets one refund notice naming the shop and the reference, and no money-received mail', async () => {
    start();
    const shopper = await member(7, 'es');
    const merchant = await member(8, 'en');
    await fund(billingDeps(temp.store, systemClock), shopper.userId, 1_000_000n);
    const orderId = await paidCheckout(shopper, merchant, 'INV-7');
    await createRefund(
      { store: temp.store, clock: systemClock, transferTerms: transferTermsBook },
      { merchantUserId: merchant.userId, idempotencyKey: randomUUID(), orderId, amountMlx: 50_000n },
    );
    const refund = await waitForMail(shopper.email, `[Sandbox] ${merchant.username} le reembolsó 50.000 MLX`);
    expect(refund.parsed.text).toContain('Referencia: INV-7');
    expect(refund.parsed.text).toContain(`Tienda: ${merchant.username}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The funding, the receipt and the refund: nothing announces the refund's credit a second time.
    expect(mailsTo(shopper.email).map((mail) => mail.parsed.subject)).toHaveLength(3);
  });
});

async function appendToUser(store: EventStore, userId: string, type: string, data: Record<string, unknown>, language?: 'en' | 'es') {
  await store.append(userStream(userId), [{ type, data, metadata: language ? { language } : {} }], 'any');
  const events = await store.readStream(userStream(userId));
  return events.at(-1) as RecordedEvent;
}

describe('security notices', () => {
  it('given two-factor turned on from a Spanish request and then off, when dispatched, then the owner gets one notice for each, with what to do if it was not them', async () => {
    start();
    const user = await member(9, 'en');
    const now = new Date().toISOString();
    const enabled = await appendToUser(
      temp.store,
      user.userId,
      'TwoFactorEnabledV2',
      { userId: user.userId, enrollmentId: randomUUID(), recoveryCodes: 'a:b', usedStep: 1, enabledAt: now },
      'es',
    );
    const on = await waitForMail(user.email, '[Sandbox] La verificación en dos pasos está activada en su cuenta de Quern');
    expect(on.parsed.text).toContain('Si no fue usted');
    await appendToUser(temp.store, user.userId, 'TwoFactorDisabled', { userId: user.userId, disabledAt: now }, 'en');
    const off = await waitForMail(user.email, '[Sandbox] Two-factor authentication is off for your Quern account');
    expect(off.parsed.text).toContain("If this wasn't you");
    expect(off.parsed.text).toContain(`${TEST_PUBLIC_URL}/profile`);
    expect(await sendNoticeEmail(payloadFor('twoFactorEnabled', enabled), jobDeps())).toMatchObject({ outcome: 'already-done' });
    expect(mailsTo(user.email)).toHaveLength(2);
  });

  it('given a new API key, when dispatched, then the merchant gets one notice with its prefix and mode and no key material', async () => {
    start();
    const user = await member(10, 'es');
    const hash = 'ab'.repeat(32);
    await temp.store.append(
      merchantKeysStream(user.userId),
      [
        {
          type: 'ApiKeyGenerated',
          data: {
            userId: user.userId,
            keyId: randomUUID(),
            prefix: 'qk_live_',
            last4: 'WXYZ',
            hash,
            generatedAt: new Date().toISOString(),
          },
          metadata: { language: 'es' },
        },
      ],
      'any',
    );
    const notice = await waitForMail(user.email, '[Sandbox] Se generó una nueva clave de API para su cuenta de Quern');
    expect(notice.parsed.text).toContain('clave de API de producción');
    expect(notice.parsed.text).toContain('Clave: qk_live_…');
    for (const secret of ['WXYZ', hash]) {
      expect(notice.parsed.text).not.toContain(secret);
    }
  });
});

describe('notices that are not sent', () => {
  it('given a deleted account, an unverified address or an event older than the notice window, when the job runs, then nothing is sent and the notice is closed', async () => {
    const deleted = await member(11);
    const gone = await appendToUser(temp.store, deleted.userId, 'TwoFactorDisabled', {
      userId: deleted.userId,
      disabledAt: new Date().toISOString(),
    });
    await appendToUser(temp.store, deleted.userId, 'UserAccountDeleted', {
      userId: deleted.userId,
      username: deleted.username,
      deletedAt: new Date().toISOString(),
    });
    const unverified = await member(12, 'en', { verified: false });
    const unproven = await appendToUser(temp.store, unverified.userId, 'TwoFactorDisabled', {
      userId: unverified.userId,
      disabledAt: new Date().toISOString(),
    });
    const old = await member(13);
    const stale = await appendToUser(temp.store, old.userId, 'TwoFactorDisabled', {
      userId: old.userId,
      disabledAt: new Date(Date.now() - NOTICE_MAX_AGE_MS - 60_000).toISOString(),
    });

    expect(await sendNoticeEmail(payloadFor('twoFactorDisabled', gone), jobDeps())).toEqual({ outcome: 'recipient-deleted' });
    expect(await sendNoticeEmail(payloadFor('twoFactorDisabled', unproven), jobDeps())).toEqual({ outcome: 'unverified' });
    expect(await sendNoticeEmail(payloadFor('twoFactorDisabled', stale), jobDeps())).toEqual({ outcome: 'stale' });
    expect(await sendNoticeEmail(payloadFor('twoFactorDisabled', stale), jobDeps())).toEqual({ outcome: 'already-done' });
    expect(smtp.received).toHaveLength(0);
  });

  it('given a malformed payload, a missing event or an event of another kind, when the job runs, then it fails for good and sends nothing', async () => {
    const user = await member(14);
    const disabled = await appendToUser(temp.store, user.userId, 'TwoFactorDisabled', {
      userId: user.userId,
      disabledAt: new Date().toISOString(),
    });
    for (const data of [
      {},
      { kind: 'nope', streamId: disabled.streamId, revision: '0' },
      { kind: 'twoFactorDisabled', streamId: 'a b', revision: '0' },
      { kind: 'twoFactorDisabled', streamId: disabled.streamId, revision: '-1' },
      { kind: 'twoFactorDisabled', streamId: disabled.streamId, revision: '999' },
      { kind: 'twoFactorEnabled', streamId: disabled.streamId, revision: disabled.revision.toString() },
      { kind: 'twoFactorDisabled', streamId: disabled.streamId, revision: disabled.revision.toString(), extra: 1 },
    ])
      await expect(sendNoticeEmail(data, jobDeps())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(smtp.received).toHaveLength(0);
  });
});

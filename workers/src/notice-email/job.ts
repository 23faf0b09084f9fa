/**
 * The notice e-mail job (issue 25): one mail per notice, about the one event its payload names.
 * Idempotent through the log: the notice's own stream is created once with NoticeEmailDone
 * (expected revision 'no stream'), so a re-run, a replay or an overlapping run sends nothing more
 * once it is recorded; a crash between sending and recording can send a second mail with the same
 * Message-ID (delivery is at least once, as for every mail).
 *
 * Nothing goes to a deleted account or to an address its owner never proved (ADR 046), and a
 * notice about an event older than NOTICE_MAX_AGE_MS is closed unsent: re-deriving the open work
 * of an older log (the first start of this version, a Redis loss) must not mail its history.
 * The language is the actor's request (two-factor, API key) when the recipient acted, else the
 * recipient's registration. Logs name ids only.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { toCheckoutEvent, type CheckoutPaid } from '@quern/core/checkout';
import { defaultLanguage, type Language } from '@quern/core/i18n';
import { type UserNameChanged, type UserRegistered, userStream } from '@quern/core/identity';
import { ERASED } from '@quern/core/personal-data';
import { toPurchaseEvent, purchaseStream } from '@quern/core/purchases';
import { toRefundEvent } from '@quern/core/refunds';
import { mlxFromWire, toWalletEvent, walletStream } from '@quern/core/wallet';
import { UnrecoverableError } from 'bullmq';
import { companyOf, type EmailJobDeps } from '../job/email-job.js';
import { parsePayload } from '../job/parse-payload.js';
import { languageIn } from '../language.js';
import { emailVerifiedIn, readUserStream } from '../user-stream.js';
import { composeNoticeEmail, type NoticeContent } from './compose.js';
import {
  NOTICE_EMAIL_DONE,
  type NoticeEmailDone,
  type NoticeEmailPayload,
  type NoticeOutcome,
  noticeEmailPayload,
  noticeEmailStream,
  noticeIdOf,
  noticeMessageKey,
} from './payload.js';

/** A notice about an event older than this is not sent (see above); two days outlast any retry. */
export const NOTICE_MAX_AGE_MS = 2 * 24 * 3_600_000;

export type NoticeEmailResult = { outcome: NoticeOutcome | 'already-done'; messageId?: string };

/** Who gets the notice and what it says. */
interface Resolved {
  recipientUserId: string;
  /** The language the event's request recorded, when the recipient made it. */
  actorLanguage?: Language;
  content: NoticeContent;
}

/**
 * A wallet or user stream with no registration behind it (a wallet opened by a test world or a
 * tool, never an account): there is nobody to tell, which closes the notice rather than failing it.
 */
class NotRegistered extends UnrecoverableError {}

export async function sendNoticeEmail(data: unknown, deps: EmailJobDeps): Promise<NoticeEmailResult> {
  const payload = parsePayload(noticeEmailPayload, data);
  const noticeId = noticeIdOf(payload);
  const [done] = await deps.store.readStream(noticeEmailStream(noticeId), { maxCount: 1 });
  if (done) return { outcome: 'already-done', ...(typeof done.data.messageId === 'string' ? { messageId: done.data.messageId } : {}) };

  const [source] = await deps.store.readStream(payload.streamId, { fromRevision: BigInt(payload.revision), maxCount: 1 });
  if (!source || source.revision !== BigInt(payload.revision))
    throw new UnrecoverableError(`No event at ${payload.streamId}@${payload.revision} for notice ${noticeId}`);
  const close = (outcome: NoticeOutcome, messageId?: string) => recordDone(deps, payload, noticeId, outcome, messageId);
  let resolved: Resolved;
  let recipient: Recipient;
  try {
    resolved = await resolve(deps.store, payload, source);
    if (deps.clock.now().getTime() - Date.parse(resolved.content.at) > NOTICE_MAX_AGE_MS) return close('stale');
    recipient = await recipientOf(deps.store, resolved.recipientUserId);
  } catch (error) {
    if (error instanceof NotRegistered) return close('no-account');
    throw error;
  }
  if (recipient.deleted) return close('recipient-deleted');
  if (!recipient.verified) return close('unverified');

  const mail = composeNoticeEmail(
    {
      company: companyOf(deps),
      language: resolved.actorLanguage ?? recipient.language,
      firstName: recipient.firstName,
      publicUrl: deps.publicUrl,
    },
    resolved.content,
  );
  const sent = await deps.mailer.send({ to: recipient.email, ...mail, messageKey: noticeMessageKey(noticeId) });
  return close('sent', sent.messageId);
}

async function recordDone(
  deps: EmailJobDeps,
  payload: NoticeEmailPayload,
  noticeId: string,
  outcome: NoticeOutcome,
  messageId: string | undefined,
): Promise<NoticeEmailResult> {
  const event: NoticeEmailDone = {
    type: NOTICE_EMAIL_DONE,
    data: { noticeId, kind: payload.kind, outcome, ...(messageId ? { messageId } : {}), doneAt: deps.clock.now().toISOString() },
  };
  try {
    await deps.store.append(noticeEmailStream(noticeId), [event], 'no_stream');
  } catch (error) {
    // Another run recorded it first (same Message-ID if it sent): the notice is done either way.
    if ((error as { code?: unknown }).code !== 'WRONG_EXPECTED_REVISION') throw error;
  }
  deps.logger.info(`[notice-email] ${noticeId}: ${outcome}`);
  return { outcome, ...(messageId ? { messageId } : {}) };
}

interface Recipient {
  deleted: boolean;
  verified: boolean;
  email: string;
  firstName: string;
  username: string;
  language: Language;
}

async function recipientOf(store: EventStore, userId: string): Promise<Recipient> {
  const events = await readUserStream(store, userId);
  const registered = events.find((event) => event.type === 'UserRegistered');
  if (!registered) throw new NotRegistered(`User ${userId} is not registered`);
  const user = registered.data as UserRegistered['data'];
  const renamed = events.findLast((event) => event.type === 'UserNameChanged');
  return {
    // The account's sealed fields read as ERASED once its key is destroyed, even before the event is read.
    deleted: events.some((event) => event.type === 'UserAccountDeleted') || user.email === ERASED,
    verified: emailVerifiedIn(events),
    email: user.email,
    firstName: renamed ? (renamed.data as UserNameChanged['data']).firstName : user.firstName,
    username: (registered.data as { username: string }).username,
    language: languageIn(registered) ?? defaultLanguage,
  };
}

async function usernameOf(store: EventStore, userId: string): Promise<string> {
  const [registered] = await store.readStream(userStream(userId), { maxCount: 1 });
  const username = registered?.type === 'UserRegistered' ? registered.data.username : undefined;
  if (typeof username !== 'string') throw new NotRegistered(`User ${userId} is not registered`);
  return username;
}

/** The user who owns a wallet, or undefined for a system wallet. */
async function ownerOf(store: EventStore, walletId: string): Promise<string | undefined> {
  const [opened] = await store.readStream(walletStream(walletId), { maxCount: 1 });
  const owner = opened?.type === 'WalletOpened' ? opened.data.ownerUserId : undefined;
  return typeof owner === 'string' ? owner : undefined;
}

const unreadable = (source: RecordedEvent, kind: string) =>
  new UnrecoverableError(`${source.type} at ${source.streamId}@${source.revision} is not the source of a ${kind} notice`);

/** The order's payment, from the checkout stream that holds it (for a refund's shop and reference). */
async function paymentOf(store: EventStore, streamId: string, orderId: string): Promise<CheckoutPaid['data'] | undefined> {
  for (const record of await store.readStream(streamId, { maxCount: 1_000 })) {
    const event = toCheckoutEvent(record);
    if (event?.data.orderId === orderId) return event.data;
  }
  return undefined;
}

async function resolve(store: EventStore, payload: NoticeEmailPayload, source: RecordedEvent): Promise<Resolved> {
  const { kind } = payload;
  const actorLanguage = languageIn(source);
  const asActor = actorLanguage ? { actorLanguage } : {};
  switch (kind) {
    case 'checkoutReceipt':
    case 'checkoutPaid': {
      const paid = toCheckoutEvent(source);
      if (!paid) throw unreadable(source, kind);
      const { data } = paid;
      const base = {
        mlx: mlxFromWire(data.mlx),
        orderId: data.orderId,
        at: data.paidAt,
        ...(data.reference ? { reference: data.reference } : {}),
      };
      if (kind === 'checkoutReceipt')
        return {
          recipientUserId: data.shopperUserId,
          content: { kind, shop: await usernameOf(store, data.merchantUserId), feeMlx: 0n, transferId: data.transferId, ...base },
        };
      return { recipientUserId: data.merchantUserId, content: { kind, payer: await usernameOf(store, data.shopperUserId), ...base } };
    }
    case 'moneyReceived':
      return resolveMoneyReceived(store, source);
    case 'checkoutRefund': {
      const refund = toRefundEvent(source);
      if (!refund) throw unreadable(source, kind);
      const { data } = refund;
      const payment = await paymentOf(store, source.streamId, data.orderId);
      return {
        recipientUserId: data.shopperUserId,
        content: {
          kind,
          shop: await usernameOf(store, data.merchantUserId),
          mlx: mlxFromWire(data.mlx),
          orderId: data.orderId,
          at: data.refundedAt,
          ...(payment?.reference ? { reference: payment.reference } : {}),
        },
      };
    }
    case 'purchaseRefund':
      return resolvePurchaseRefund(store, source);
    case 'twoFactorEnabled':
    case 'twoFactorDisabled': {
      const { userId } = source.data;
      const at = source.data.enabledAt ?? source.data.disabledAt;
      const expected = kind === 'twoFactorEnabled' ? ['TwoFactorEnabled', 'TwoFactorEnabledV2'] : ['TwoFactorDisabled'];
      if (!expected.includes(source.type) || typeof userId !== 'string' || typeof at !== 'string') throw unreadable(source, kind);
      return { recipientUserId: userId, ...asActor, content: { kind, at } };
    }
    case 'apiKeyGenerated': {
      const { userId, prefix, generatedAt } = source.data;
      if (source.type !== 'ApiKeyGenerated' || typeof userId !== 'string' || typeof prefix !== 'string' || typeof generatedAt !== 'string')
        throw unreadable(source, kind);
      return { recipientUserId: userId, ...asActor, content: { kind, prefix, at: generatedAt } };
    }
  }
}

/** A purchase's refund or reversal, to the buyer its order names (PurchaseOrdered opens the stream). */
async function resolvePurchaseRefund(store: EventStore, source: RecordedEvent): Promise<Resolved> {
  const event = toPurchaseEvent(source);
  if (event?.type !== 'PurchaseRefunded' && event?.type !== 'PurchaseReversed') throw unreadable(source, 'purchaseRefund');
  const [first] = await store.readStream(purchaseStream(event.data.orderId), { maxCount: 1 });
  const ordered = first ? toPurchaseEvent(first) : undefined;
  if (ordered?.type !== 'PurchaseOrdered') throw unreadable(source, 'purchaseRefund');
  const reversal = event.type === 'PurchaseReversed';
  return {
    recipientUserId: ordered.data.buyerUserId,
    content: {
      kind: 'purchaseRefund',
      reversal,
      usdCents: BigInt(event.data.usdCents),
      mlxReturned: mlxFromWire(event.data.mlxReturned),
      orderId: event.data.orderId,
      at: event.type === 'PurchaseReversed' ? event.data.reversedAt : event.data.refundedAt,
    },
  };
}

async function resolveMoneyReceived(store: EventStore, source: RecordedEvent): Promise<Resolved> {
  const event = toWalletEvent(source);
  if (event?.type === 'DepositConfirmed') {
    const owner = await ownerOf(store, event.data.walletId);
    if (!owner) throw unreadable(source, 'moneyReceived');
    return {
      recipientUserId: owner,
      content: { kind: 'moneyReceived', mlx: mlxFromWire(event.data.amountMlx), at: event.data.confirmedAt },
    };
  }
  if (event?.type === 'TransferCredited') {
    const owner = await ownerOf(store, event.data.walletId);
    if (!owner) throw unreadable(source, 'moneyReceived');
    const payer = await ownerOf(store, event.data.fromWalletId);
    // A user's wallet is named by its username; anything else by its address.
    const from = payer ? await usernameOf(store, payer) : event.data.fromAddress;
    return {
      recipientUserId: owner,
      content: { kind: 'moneyReceived', from, mlx: mlxFromWire(event.data.amountMlx), at: event.data.creditedAt },
    };
  }
  throw unreadable(source, 'moneyReceived');
}

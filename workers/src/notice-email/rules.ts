/**
 * The notice e-mails' dispatch rules (issue 25): which event asks for which notice. Each rule's
 * choice is made from the event alone, so live dispatch and re-derivation after a Redis loss agree;
 * each notice is closed by the NoticeEmailDone on its own stream.
 *
 * Money received is every credit to a user's wallet except those another mail already covers: a
 * checkout payment (the merchant's "you were paid"), a purchase (the purchase receipt), a checkout
 * refund (the refund notice) and a subscription charge (the subscription mails). A purchase's
 * refund or reversal (PayPal gave the USD back) gets its own notice: the MLX it bought go back.
 */
import type { RecordedEvent } from '@quern/core';
import { SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import type { DispatchRule } from '../job/dispatch-rule.js';
import {
  NOTICE_EMAIL_DONE,
  NOTICE_EMAIL_JOB_NAME,
  NOTICE_EMAIL_QUEUE,
  type NoticeKind,
  noticeEmailDoneData,
  noticeEmailJobId,
  noticeEmailPayload,
  noticeIdOf,
} from './payload.js';

const payloadOf = (kind: NoticeKind) => (recorded: RecordedEvent) =>
  noticeEmailPayload.parse({ kind, streamId: recorded.streamId, revision: recorded.revision.toString() });

const systemWallets = new Set<string>(Object.values(SYSTEM_WALLET_IDS));
const toUserWallet = (recorded: RecordedEvent): boolean =>
  typeof recorded.data.walletId === 'string' && !systemWallets.has(recorded.data.walletId);

/** Reference kinds whose credit another e-mail already announces. */
const COVERED_CREDITS = new Set(['checkout', 'checkoutRefund', 'subscriptionCharge', 'purchase', 'purchaseRefund', 'purchaseReversal']);

export function isUncoveredCredit(recorded: RecordedEvent): boolean {
  if (!toUserWallet(recorded)) return false;
  const reference = recorded.data.reference as { kind?: unknown } | undefined;
  return reference === undefined || (typeof reference.kind === 'string' && !COVERED_CREDITS.has(reference.kind));
}

export function tookMlxBack(recorded: RecordedEvent): boolean {
  const returned = recorded.data.mlxReturned;
  return typeof returned === 'string' && /^[1-9][0-9]*$/.test(returned);
}

function noticeRule(request: string, kind: NoticeKind, needsJob?: (recorded: RecordedEvent) => boolean): DispatchRule {
  const payload = payloadOf(kind);
  return {
    request,
    completions: [NOTICE_EMAIL_DONE],
    queue: NOTICE_EMAIL_QUEUE,
    name: NOTICE_EMAIL_JOB_NAME,
    jobId: (recorded) => noticeEmailJobId(noticeIdOf(payload(recorded))),
    payload,
    matchCompletion: (recorded) => noticeEmailJobId(noticeEmailDoneData.parse(recorded.data).noticeId),
    ...(needsJob ? { needsJob } : {}),
  };
}

export const noticeEmailRules: readonly DispatchRule[] = [
  noticeRule('CheckoutPaid', 'checkoutReceipt'),
  noticeRule('CheckoutPaid', 'checkoutPaid'),
  noticeRule('TransferCredited', 'moneyReceived', isUncoveredCredit),
  noticeRule('DepositConfirmed', 'moneyReceived', toUserWallet),
  noticeRule('CheckoutRefunded', 'checkoutRefund'),
  // A PayPal refund or reversal that took the bought MLX back from the buyer's wallet: they hear of
  // it. When nothing moved (never credited, or already spent) their wallet did not change, and
  // PayPal's own mail tells them about the USD.
  noticeRule('PurchaseRefunded', 'purchaseRefund', tookMlxBack),
  noticeRule('PurchaseReversed', 'purchaseRefund', tookMlxBack),
  noticeRule('TwoFactorEnabled', 'twoFactorEnabled'),
  noticeRule('TwoFactorEnabledV2', 'twoFactorEnabled'),
  noticeRule('TwoFactorDisabled', 'twoFactorDisabled'),
  noticeRule('ApiKeyGenerated', 'apiKeyGenerated'),
];

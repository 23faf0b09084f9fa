// Proves which events ask for which notice e-mail: every checkout payment asks for a receipt and a "you were paid", a credit asks for money received unless another mail already covers it or the payee is a system wallet, and the NoticeEmailDone of a notice closes exactly its job; the same event always names the same job.
import { SYSTEM_WALLET_IDS } from '@quern/core/wallet';
import { describe, expect, it } from 'vitest';
import { dispatchRules } from '../dispatch/rules.js';
import { jobsRequestedBy } from '../job/dispatch-rule.js';
import { recorded } from '../../test/recorded.js';
import { NOTICE_EMAIL_DONE, NOTICE_EMAIL_QUEUE, noticeEmailJobId, noticeIdOf } from './payload.js';
import { noticeEmailRules } from './rules.js';

const notices = (type: string, data: Record<string, unknown>, streamId = 'stream-1') =>
  jobsRequestedBy({ ...recorded(type, data, 7n), streamId, revision: 3n }, dispatchRules).filter((job) => job.queue === NOTICE_EMAIL_QUEUE);

describe('notice e-mail rules', () => {
  it('given a checkout payment, when dispatched, then it asks for the receipt and the "you were paid", each named by its kind and the event', () => {
    const jobs = notices('CheckoutPaid', {}, 'checkout-abc');
    expect(jobs.map((job) => job.data)).toEqual([
      { kind: 'checkoutReceipt', streamId: 'checkout-abc', revision: '3' },
      { kind: 'checkoutPaid', streamId: 'checkout-abc', revision: '3' },
    ]);
    expect(jobs.map((job) => job.jobId)).toEqual(
      jobs.map((job) => noticeEmailJobId(noticeIdOf(job.data as { kind: 'checkoutReceipt'; streamId: string; revision: string }))),
    );
    expect(notices('CheckoutPaid', {}, 'checkout-abc').map((job) => job.jobId)).toEqual(jobs.map((job) => job.jobId));
  });

  it.each([
    ['a plain send', undefined, 1],
    ['a payout', { kind: 'payout', payoutId: 'p1' }, 1],
    ['a checkout payment', { kind: 'checkout', orderId: 'o' }, 0],
    ['a checkout refund', { kind: 'checkoutRefund', orderId: 'o', refundId: 'r' }, 0],
    ['a subscription charge', { kind: 'subscriptionCharge', subscriptionId: 's', period: 1 }, 0],
    ['a purchase', { kind: 'purchase', orderId: 'o', captureId: 'c' }, 0],
  ])('given a credit for %s, when dispatched, then it asks for that many money-received notices', (_label, reference, count) => {
    expect(notices('TransferCredited', { walletId: 'w1', ...(reference ? { reference } : {}) })).toHaveLength(count);
  });

  it('given a credit or a deposit to a system wallet, when dispatched, then no notice is asked for; to a user wallet, one', () => {
    expect(notices('TransferCredited', { walletId: SYSTEM_WALLET_IDS.fee })).toHaveLength(0);
    expect(
      notices('DepositConfirmed', { walletId: SYSTEM_WALLET_IDS.genesis, depositId: 'h:0', amountMlx: '5', confirmedAt: 'x' }),
    ).toHaveLength(0);
    expect(notices('DepositConfirmed', { walletId: 'w1', depositId: 'h:0', amountMlx: '5', confirmedAt: 'x' })).toHaveLength(1);
  });

  it('given a NoticeEmailDone, when matched, then it closes the job of its notice; a malformed one throws', () => {
    const [job] = notices('TwoFactorDisabled', { userId: 'u1', disabledAt: 'x' });
    const noticeId = noticeIdOf(job?.data as { kind: 'twoFactorDisabled'; streamId: string; revision: string });
    const rule = noticeEmailRules.find((r) => r.request === 'TwoFactorDisabled');
    const done = recorded(NOTICE_EMAIL_DONE, { noticeId, kind: 'twoFactorDisabled', outcome: 'sent', messageId: '<m@x>', doneAt: 'x' });
    expect(rule?.matchCompletion(done)).toBe(job?.jobId);
    expect(() => rule?.matchCompletion(recorded(NOTICE_EMAIL_DONE, { kind: 'x' }))).toThrow();
  });

  it('given two-factor and API key events, when dispatched, then each asks for its security notice', () => {
    expect(notices('TwoFactorEnabledV2', { userId: 'u1' }).map((job) => job.data.kind)).toEqual(['twoFactorEnabled']);
    expect(notices('TwoFactorEnabled', { userId: 'u1' }).map((job) => job.data.kind)).toEqual(['twoFactorEnabled']);
    expect(notices('ApiKeyGenerated', { userId: 'u1' }).map((job) => job.data.kind)).toEqual(['apiKeyGenerated']);
    expect(notices('CheckoutRefunded', {}).map((job) => job.data.kind)).toEqual(['checkoutRefund']);
    expect(notices('PurchaseRefunded', { orderId: 'o', mlxReturned: '5000' }).map((job) => job.data.kind)).toEqual(['purchaseRefund']);
    expect(notices('PurchaseReversed', { orderId: 'o', mlxReturned: '1' }).map((job) => job.data.kind)).toEqual(['purchaseRefund']);
    // Nothing taken back (never credited, or already spent): the wallet did not change.
    expect(notices('PurchaseRefunded', { orderId: 'o', mlxReturned: '0' })).toEqual([]);
    expect(notices('PurchaseReversed', { orderId: 'o' })).toEqual([]);
    expect(notices('UserSignedIn', { userId: 'u1' })).toEqual([]);
  });
});

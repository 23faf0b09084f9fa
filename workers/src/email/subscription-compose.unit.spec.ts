// Proves each subscription e-mail comes out in English and Spanish with its figures (amounts per
// language, dates in UTC, the cancellation's reason), escapes the plan name in HTML, and that every
// kind and every cancellation reason has its text.
import { CANCELLED_BY } from '@quern/core/subscriptions';
import { describe, expect, it } from 'vitest';
import { composeSubscriptionEmail, type SubscriptionEmail } from './subscription-compose.js';

const common = { company: 'Acme Ltd <&>', firstName: 'Ada', planName: 'Gold <VIP>', url: 'https://quern.example/account' };
const emails: SubscriptionEmail[] = [
  {
    kind: 'receipt',
    mlx: 250_000n,
    period: 3,
    chargedAt: '2026-03-15T10:00:00.000Z',
    paidThrough: '2026-04-15T10:00:00.000Z',
    transferId: 'subscription-sub_x-3',
    receiptUrl: 'https://quern.example/receipts/subscription-sub_x-3',
  },
  { kind: 'chargeFailed', mlx: 250_000n, nextAttemptAt: '2026-03-16T10:00:00.000Z' },
  { kind: 'cancelledSubscriber', by: 'subscriber', endsAt: '2026-04-15T10:00:00.000Z' },
  { kind: 'cancelledProvider', by: 'unpaid', endsAt: '2026-04-15T10:00:00.000Z', subscriber: 'bob_b' },
  { kind: 'newSubscriberProvider', mlx: 250_000n, subscriber: 'bob_b', chargedAt: '2026-01-15T10:00:00.000Z' },
  { kind: 'priceChange', previousMlx: 250_000n, mlx: 300_000n, agreedMlx: 250_000n, effectiveFrom: '2026-02-15T10:00:00.000Z' },
  { kind: 'priceChange', previousMlx: 250_000n, mlx: 200_000n, agreedMlx: 250_000n, effectiveFrom: '2026-02-15T10:00:00.000Z' },
];

describe('composeSubscriptionEmail', () => {
  it('a receipt in English names the amount, the period, the paid-through date and the transaction', () => {
    const mail = composeSubscriptionEmail({ language: 'en', ...common, ...(emails[0] as SubscriptionEmail) });
    expect(mail.subject).toBe('Your Quern subscription receipt: Gold <VIP>');
    expect(mail.text).toContain('We charged 250,000 MLX from your Quern wallet for your subscription to Gold <VIP>.');
    expect(mail.text).toContain('Period: Month 3');
    expect(mail.text).toContain('Paid through: 15 April 2026 at 10:00 am (UTC)');
    expect(mail.text).toContain('Transaction: subscription-sub_x-3');
    expect(mail.text).toContain('See or print your receipt: https://quern.example/receipts/subscription-sub_x-3');
    expect(mail.html).toContain('Gold &lt;VIP&gt;');
    expect(mail.html).not.toContain('Gold <VIP>');
    expect(mail.text).toContain('The Acme Ltd <&> team');
    expect(mail.html).toContain('at Acme Ltd &lt;&amp;&gt;, the millix (MLX) wallet.');
  });

  it('a price change in Spanish gives both prices and the date it applies from', () => {
    const mail = composeSubscriptionEmail({ language: 'es', ...common, ...(emails[5] as SubscriptionEmail) });
    expect(mail.subject).toBe('El precio de Gold <VIP> cambia');
    expect(mail.text).toContain('de 250.000 MLX a 300.000 MLX al mes');
    expect(mail.text).toContain('15 de febrero de 2026');
  });

  it('a price increase says the subscriber must accept it and renews at the agreed price until then; a decrease just applies', () => {
    const increase = composeSubscriptionEmail({ language: 'en', ...common, ...(emails[5] as SubscriptionEmail) });
    expect(increase.text).toContain('You pay the new price only if you accept it: open your subscription and choose Accept');
    expect(increase.text).toContain('Until you accept it, your subscription renews at 250,000 MLX a month');
    expect(increase.text).not.toContain('The new price applies from');
    const spanish = composeSubscriptionEmail({ language: 'es', ...common, ...(emails[5] as SubscriptionEmail) });
    expect(spanish.text).toContain('Solo paga el nuevo precio si lo acepta');
    const decrease = composeSubscriptionEmail({ language: 'en', ...common, ...(emails[6] as SubscriptionEmail) });
    expect(decrease.text).toContain('The new price applies from your charge on 15 February 2026');
    expect(decrease.text).not.toContain('accept');
  });

  it('a failed charge says when it is tried again; the provider learns who left and why', () => {
    const failed = composeSubscriptionEmail({ language: 'en', ...common, ...(emails[1] as SubscriptionEmail) });
    expect(failed.text).toContain('We will try again on 16 March 2026 at 10:00 am (UTC).');
    const left = composeSubscriptionEmail({ language: 'en', ...common, ...(emails[3] as SubscriptionEmail) });
    expect(left.text).toContain('The subscription of bob_b to your plan Gold <VIP> is cancelled because its payment failed on every try.');
  });

  it('every kind and every cancellation reason has a subject and a text in both languages', () => {
    const all: SubscriptionEmail[] = [
      ...emails,
      ...CANCELLED_BY.map((by): SubscriptionEmail => ({ kind: 'cancelledSubscriber', by, endsAt: '2026-04-15T10:00:00.000Z' })),
      ...CANCELLED_BY.map(
        (by): SubscriptionEmail => ({ kind: 'cancelledProvider', by, endsAt: '2026-04-15T10:00:00.000Z', subscriber: 'b' }),
      ),
    ];
    for (const language of ['en', 'es'] as const)
      for (const email of all) {
        const mail = composeSubscriptionEmail({ language, ...common, ...email });
        expect(mail.subject.length).toBeGreaterThan(0);
        expect(mail.text).toContain(language === 'en' ? 'Hello Ada,' : 'Hola, Ada:');
        expect(mail.text).not.toMatch(/\{\{|undefined/);
      }
  });
});

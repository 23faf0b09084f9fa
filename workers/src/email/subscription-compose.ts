/**
 * The subscription e-mails (issue 13), in the recipient's language: to the subscriber a receipt
 * per charge, a failed charge, the cancellation and a price change (a higher one only with their
 * consent); to the plan's provider a new
 * subscriber and a cancellation. Dates are in UTC (the mails say so), amounts in whole MLX.
 */
import type { Language } from '@quern/core/i18n';
import type { CancelledBy, SubscriptionEmailKind } from '@quern/core/subscriptions';
import { formatMlx } from '@quern/core/wallet';
import { type ComposedEmail, layout, receiptDate, type Sender } from './compose.js';
import { emailTexts, fill } from './texts.js';

interface Common extends Sender {
  language: Language;
  firstName: string;
  planName: string;
  /** The page where the recipient sees their subscriptions or their plan's subscribers. */
  url: string;
}

export type SubscriptionEmail =
  /** `receiptUrl`: the charge's receipt page (ADR 091). */
  | { kind: 'receipt'; mlx: bigint; period: number; chargedAt: string; paidThrough: string; transferId: string; receiptUrl: string }
  | { kind: 'chargeFailed'; mlx: bigint; nextAttemptAt: string }
  | { kind: 'cancelledSubscriber'; by: CancelledBy; endsAt: string }
  | { kind: 'cancelledProvider'; by: CancelledBy; endsAt: string; subscriber: string }
  | { kind: 'newSubscriberProvider'; mlx: bigint; subscriber: string; chargedAt: string }
  /** `agreedMlx`: what the subscriber agreed to pay; a higher price needs their consent (ADR 044). */
  | { kind: 'priceChange'; previousMlx: bigint; mlx: bigint; agreedMlx: bigint; effectiveFrom: string };

export function composeSubscriptionEmail(input: Common & SubscriptionEmail): ComposedEmail {
  const { language } = input;
  const t = emailTexts(language).subscription;
  const plan = input.planName;
  const mlx = (value: bigint) => formatMlx(value, language);
  const date = (iso: string) => fill(t.dateValue, { date: receiptDate(iso, language) });
  const base = {
    language,
    company: input.company,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    link: { url: input.url, text: t.linkText },
  };
  const planLine = { label: t.planLabel, value: plan };
  const kind: SubscriptionEmailKind = input.kind;
  switch (input.kind) {
    case 'receipt':
      return layout({
        ...base,
        subject: fill(t.receipt.subject, { plan }),
        paragraphsBeforeLink: [fill(t.receipt.body, { plan, mlx: mlx(input.mlx) })],
        details: [
          planLine,
          { label: t.amountLabel, value: `${mlx(input.mlx)} MLX` },
          { label: t.periodLabel, value: fill(t.periodValue, { period: input.period }) },
          { label: t.paidThroughLabel, value: date(input.paidThrough) },
          { label: t.transactionLabel, value: input.transferId },
          { label: t.dateLabel, value: date(input.chargedAt) },
        ],
        // The receipt's printable page (ADR 091) rather than the subscriptions list.
        link: { url: input.receiptUrl, text: t.receipt.linkText },
        paragraphsAfterLink: [t.receipt.keep],
      });
    case 'chargeFailed':
      return layout({
        ...base,
        subject: fill(t.chargeFailed.subject, { plan }),
        paragraphsBeforeLink: [
          fill(t.chargeFailed.body, { plan, mlx: mlx(input.mlx) }),
          fill(t.chargeFailed.retry, { date: receiptDate(input.nextAttemptAt, language) }),
        ],
        details: [
          planLine,
          { label: t.priceLabel, value: fill(t.priceValue, { mlx: mlx(input.mlx) }) },
          { label: t.nextChargeLabel, value: date(input.nextAttemptAt) },
        ],
        paragraphsAfterLink: [],
      });
    case 'cancelledSubscriber':
      return layout({
        ...base,
        subject: fill(t.cancelledSubscriber.subject, { plan }),
        paragraphsBeforeLink: [fill(t.cancelledSubscriber[input.by], { plan }), t.cancelledSubscriber.ends],
        details: [planLine, { label: t.endsLabel, value: date(input.endsAt) }],
        paragraphsAfterLink: [],
      });
    case 'cancelledProvider':
      return layout({
        ...base,
        subject: fill(t.cancelledProvider.subject, { plan }),
        paragraphsBeforeLink: [fill(t.cancelledProvider[input.by], { plan, subscriber: input.subscriber }), t.cancelledProvider.ends],
        details: [planLine, { label: t.subscriberLabel, value: input.subscriber }, { label: t.endsLabel, value: date(input.endsAt) }],
        paragraphsAfterLink: [],
      });
    case 'newSubscriberProvider':
      return layout({
        ...base,
        subject: fill(t.newSubscriberProvider.subject, { plan }),
        paragraphsBeforeLink: [fill(t.newSubscriberProvider.body, { plan, subscriber: input.subscriber, mlx: mlx(input.mlx) })],
        details: [planLine, { label: t.subscriberLabel, value: input.subscriber }, { label: t.dateLabel, value: date(input.chargedAt) }],
        paragraphsAfterLink: [],
      });
    case 'priceChange':
      return layout({
        ...base,
        subject: fill(t.priceChange.subject, { plan }),
        paragraphsBeforeLink: [
          fill(t.priceChange.body, { plan, previous: mlx(input.previousMlx), price: mlx(input.mlx) }),
          input.mlx > input.agreedMlx
            ? fill(t.priceChange.accept, { date: receiptDate(input.effectiveFrom, language), agreed: mlx(input.agreedMlx) })
            : fill(t.priceChange.from, { date: receiptDate(input.effectiveFrom, language) }),
        ],
        details: [planLine, { label: t.priceLabel, value: fill(t.priceValue, { mlx: mlx(input.mlx) }) }],
        paragraphsAfterLink: [],
      });
    default:
      throw new Error(`No e-mail for ${kind}`);
  }
}

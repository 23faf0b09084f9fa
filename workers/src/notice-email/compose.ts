/**
 * The notice e-mails' texts (issue 25), composed with the shared layout: a receipt and a "you
 * were paid" for each checkout payment, money received, a checkout refund, two-factor turned on or
 * off, and a new API key. Dates are in UTC in the recipient's language; amounts use its grouping.
 */
import type { Language } from '@quern/core/i18n';
import { receiptPath } from '@quern/core/receipts';
import { formatMlx, formatUsdCents } from '@quern/core/wallet';
import { type ComposedEmail, layout, receiptDate, type Sender } from '../email/compose.js';
import { emailTexts, fill } from '../email/texts.js';

/** What a notice says, by kind; every amount in MLX as bigint. */
export type NoticeContent =
  | {
      kind: 'checkoutReceipt';
      shop: string;
      reference?: string;
      mlx: bigint;
      feeMlx: bigint;
      orderId: string;
      at: string;
      /** The payment's transfer: its receipt's id (ADR 091). */
      transferId: string;
    }
  | { kind: 'checkoutPaid'; payer: string; reference?: string; mlx: bigint; orderId: string; at: string }
  | { kind: 'moneyReceived'; from?: string; mlx: bigint; at: string }
  | { kind: 'checkoutRefund'; shop: string; reference?: string; mlx: bigint; orderId: string; at: string }
  | { kind: 'purchaseRefund'; reversal: boolean; usdCents: bigint; mlxReturned: bigint; orderId: string; at: string }
  | { kind: 'twoFactorEnabled'; at: string }
  | { kind: 'twoFactorDisabled'; at: string }
  | { kind: 'apiKeyGenerated'; prefix: string; at: string };

export interface NoticeEnvelope extends Sender {
  language: Language;
  firstName: string;
  /** Where users reach Quern, without a trailing slash. */
  publicUrl: string;
}

type Detail = { label: string; value: string };

export function composeNoticeEmail(envelope: NoticeEnvelope, content: NoticeContent): ComposedEmail {
  const { language, publicUrl } = envelope;
  const t = emailTexts(language).notice;
  const date = fill(t.dateValue, { date: receiptDate(content.at, language) });
  const base = { language, company: envelope.company, greeting: fill(t.greeting, { firstName: envelope.firstName }) };
  const mlxOf = (mlx: bigint) => formatMlx(mlx, language);
  const amount = (mlx: bigint): Detail => ({ label: t.amountLabel, value: fill(t.amountValue, { mlx: mlxOf(mlx) }) });
  const reference = (value: string | undefined): Detail => ({ label: t.referenceLabel, value: value ?? t.noReference });
  const when: Detail = { label: t.dateLabel, value: date };
  switch (content.kind) {
    case 'checkoutReceipt': {
      const k = t.checkoutReceipt;
      const params = { shop: content.shop, mlx: mlxOf(content.mlx) };
      return layout({
        ...base,
        subject: fill(k.subject, params),
        paragraphsBeforeLink: [fill(k.body, params)],
        details: [
          { label: t.shopLabel, value: content.shop },
          reference(content.reference),
          amount(content.mlx),
          { label: t.feeLabel, value: fill(t.amountValue, { mlx: mlxOf(content.feeMlx) }) },
          when,
          { label: t.orderLabel, value: content.orderId },
        ],
        link: { url: `${publicUrl}${receiptPath(content.transferId)}`, text: k.linkText },
        paragraphsAfterLink: [k.keep],
      });
    }
    case 'checkoutPaid': {
      const k = t.checkoutPaid;
      const params = { payer: content.payer, mlx: mlxOf(content.mlx) };
      return layout({
        ...base,
        subject: fill(k.subject, params),
        paragraphsBeforeLink: [fill(k.body, params)],
        details: [
          { label: k.payerLabel, value: content.payer },
          reference(content.reference),
          amount(content.mlx),
          when,
          { label: t.orderLabel, value: content.orderId },
        ],
        link: { url: `${publicUrl}/payments`, text: k.linkText },
        paragraphsAfterLink: [],
      });
    }
    case 'moneyReceived': {
      const k = t.moneyReceived;
      const params = { mlx: mlxOf(content.mlx) };
      const body = content.from === undefined ? fill(k.depositBody, params) : fill(k.transferBody, { ...params, from: content.from });
      return layout({
        ...base,
        subject: fill(k.subject, params),
        paragraphsBeforeLink: [body],
        details: [...(content.from === undefined ? [] : [{ label: t.fromLabel, value: content.from }]), amount(content.mlx), when],
        link: { url: `${publicUrl}/account`, text: k.linkText },
        paragraphsAfterLink: [],
      });
    }
    case 'checkoutRefund': {
      const k = t.checkoutRefund;
      const params = { shop: content.shop, mlx: mlxOf(content.mlx) };
      return layout({
        ...base,
        subject: fill(k.subject, params),
        paragraphsBeforeLink: [fill(k.body, params)],
        details: [
          { label: t.shopLabel, value: content.shop },
          reference(content.reference),
          amount(content.mlx),
          when,
          { label: t.orderLabel, value: content.orderId },
        ],
        link: { url: `${publicUrl}/account`, text: k.linkText },
        paragraphsAfterLink: [],
      });
    }
    case 'purchaseRefund': {
      const k = t.purchaseRefund;
      const params = { usd: formatUsdCents(content.usdCents, language), mlx: mlxOf(content.mlxReturned) };
      return layout({
        ...base,
        subject: fill(content.reversal ? k.subjectReversal : k.subject, params),
        paragraphsBeforeLink: [fill(content.reversal ? k.bodyReversal : k.body, params), fill(k.taken, params)],
        details: [
          { label: k.usdLabel, value: fill(k.usdValue, params) },
          amount(content.mlxReturned),
          when,
          { label: t.orderLabel, value: content.orderId },
        ],
        link: { url: `${publicUrl}/account`, text: k.linkText },
        paragraphsAfterLink: [],
      });
    }
    case 'twoFactorEnabled':
    case 'twoFactorDisabled': {
      const k = t[content.kind];
      return layout({
        ...base,
        subject: k.subject,
        paragraphsBeforeLink: [fill(k.body, { date: receiptDate(content.at, language) })],
        link: { url: `${publicUrl}/profile`, text: k.linkText },
        paragraphsAfterLink: [k.notYou],
      });
    }
    case 'apiKeyGenerated': {
      const k = t.apiKeyGenerated;
      const mode = content.prefix.startsWith('qk_live_') ? k.modeLive : k.modeTest;
      return layout({
        ...base,
        subject: k.subject,
        paragraphsBeforeLink: [fill(k.body, { date: receiptDate(content.at, language), mode })],
        details: [{ label: k.keyLabel, value: fill(k.keyValue, { prefix: content.prefix }) }],
        link: { url: `${publicUrl}/api-direct`, text: k.linkText },
        paragraphsAfterLink: [k.notYou],
      });
    }
  }
}

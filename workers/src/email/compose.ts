/**
 * Composes the e-mails from the i18n texts: plain text for every client, and simple HTML with
 * every interpolated value escaped (names are user input). The signature and the footer name the
 * operator's company (COMPANY_NAME, given at run time: ADR 041); "Quern" elsewhere is the product.
 */
import { formatLongDateTime, type Language } from '@quern/core/i18n';
import { formatMlx, formatMlxPerUsd, formatUsdCents, parseExchangeRate } from '@quern/core/wallet';
import { emailTexts, fill } from './texts.js';

/** What every composed e-mail is told: the operator's company (COMPANY_NAME). */
export interface Sender {
  company: string;
}

export interface ComposedEmail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface Layout {
  language: Language;
  /** The operator's company (COMPANY_NAME), in the signature and the footer. */
  company: string;
  subject: string;
  greeting: string;
  paragraphsBeforeLink: string[];
  /** Label and value lines (a receipt's figures), after the paragraphs before the link. */
  details?: Array<{ label: string; value: string }>;
  link: { url: string; text: string };
  paragraphsAfterLink: string[];
  /** Why the reader gets this mail, when not because of an account of theirs (the footer's default). */
  footer?: string;
}

export function layout(parts: Layout): ComposedEmail {
  const texts = emailTexts(parts.language);
  const common = {
    signature: fill(texts.signature, { company: parts.company }),
    footer: parts.footer ?? fill(texts.footer, { company: parts.company }),
  };
  const details = parts.details ?? [];
  const text = [
    parts.greeting,
    ...parts.paragraphsBeforeLink,
    ...(details.length > 0 ? [details.map((d) => `${d.label}: ${d.value}`).join('\n')] : []),
    `${parts.link.text}: ${parts.link.url}`,
    ...parts.paragraphsAfterLink,
    common.signature,
    `--\n${common.footer}`,
  ].join('\n\n');
  const paragraph = (p: string) => `<p>${escapeHtml(p)}</p>`;
  const html = [
    `<!doctype html><html lang="${parts.language}"><body style="font-family:sans-serif;line-height:1.5">`,
    paragraph(parts.greeting),
    ...parts.paragraphsBeforeLink.map(paragraph),
    ...(details.length > 0
      ? [
          '<table style="border-collapse:collapse">',
          ...details.map(
            (d) => `<tr><th style="text-align:left;padding:2px 12px 2px 0">${escapeHtml(d.label)}</th><td>${escapeHtml(d.value)}</td></tr>`,
          ),
          '</table>',
        ]
      : []),
    `<p><a href="${escapeHtml(parts.link.url)}">${escapeHtml(parts.link.text)}</a></p>`,
    ...parts.paragraphsAfterLink.map(paragraph),
    paragraph(common.signature),
    `<hr><p style="font-size:small;color:#666">${escapeHtml(common.footer)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject: parts.subject, text: `${text}\n`, html };
}

/**
 * The welcome mail. With `verify` (a sign-up since ADR 046) it is also the verification mail: its
 * link proves the address instead of opening the wallet.
 */
export function composeWelcomeEmail(
  input: Sender & {
    language: Language;
    firstName: string;
    username: string;
    walletUrl: string;
    verify?: { url: string; hoursValid: number };
  },
): ComposedEmail {
  const t = emailTexts(input.language).welcome;
  const { verify } = input;
  return layout({
    language: input.language,
    company: input.company,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [t.body, fill(t.details, { username: input.username }), ...(verify ? [t.verifyBody] : [])],
    link: verify ? { url: verify.url, text: t.verifyLinkText } : { url: input.walletUrl, text: t.linkText },
    paragraphsAfterLink: [...(verify ? [fill(t.verifyExpiry, { hours: verify.hoursValid })] : []), t.notYou],
  });
}

/** Another verification link, asked for from the dashboard (ADR 046); no user text in it. */
export function composeEmailVerificationEmail(
  input: Sender & { language: Language; verifyUrl: string; hoursValid: number },
): ComposedEmail {
  const t = emailTexts(input.language).emailVerification;
  return layout({
    language: input.language,
    company: input.company,
    subject: t.subject,
    greeting: t.greeting,
    paragraphsBeforeLink: [t.body],
    link: { url: input.verifyUrl, text: t.linkText },
    paragraphsAfterLink: [fill(t.expiry, { hours: input.hoursValid }), t.notYou],
  });
}

export function composePasswordResetEmail(
  input: Sender & {
    language: Language;
    firstName: string;
    resetUrl: string;
    minutesValid: number;
  },
): ComposedEmail {
  const t = emailTexts(input.language).passwordReset;
  return layout({
    language: input.language,
    company: input.company,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [t.body],
    link: { url: input.resetUrl, text: t.linkText },
    paragraphsAfterLink: [fill(t.expiry, { minutes: input.minutesValid }), t.notYou],
  });
}

/** The notice after a profile password change; the link asks for a reset, to take the account back. */
export function composePasswordChangedEmail(
  input: Sender & {
    language: Language;
    firstName: string;
    changedAt: string;
    resetUrl: string;
  },
): ComposedEmail {
  const t = emailTexts(input.language).passwordChanged;
  return layout({
    language: input.language,
    company: input.company,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [fill(t.body, { date: receiptDate(input.changedAt, input.language) })],
    link: { url: input.resetUrl, text: t.linkText },
    paragraphsAfterLink: [t.notYou],
  });
}

/** The notice that wrong two-factor codes locked the account's codes; the link leads to the profile. */
export function composeTwoFactorLockedEmail(
  input: Sender & { language: Language; firstName: string; lockedAt: string; until: string; profileUrl: string },
): ComposedEmail {
  const t = emailTexts(input.language).twoFactorLocked;
  return layout({
    language: input.language,
    company: input.company,
    subject: t.subject,
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [
      fill(t.body, { date: receiptDate(input.lockedAt, input.language), until: receiptDate(input.until, input.language) }),
    ],
    link: { url: input.profileUrl, text: t.linkText },
    paragraphsAfterLink: [t.advice],
  });
}

export interface PurchaseReceiptFigures {
  mlx: bigint;
  usdCents: bigint;
  /** The order's rate as recorded (USD per MLX, canonical decimal text). */
  usdPerMlx: string;
  orderId: string;
  /** PayPal's capture id: the buyer's PayPal transaction. */
  captureId: string;
  /** When the MLX was credited (ISO-8601). */
  creditedAt: string;
}

/** The date in the buyer's language, in UTC (the mail says so): a receipt must not depend on the server's zone. */
export function receiptDate(iso: string, language: Language): string {
  // The app's one date format per language (core i18n/format.ts): en-GB in English, as the pages.
  return formatLongDateTime(iso, language, { timeZone: 'UTC' });
}

export function composePurchaseReceiptEmail(
  input: Sender & {
    language: Language;
    firstName: string /** The receipt's printable page (ADR 091). */;
    receiptUrl: string;
  } & PurchaseReceiptFigures,
): ComposedEmail {
  const { language } = input;
  const t = emailTexts(language).purchaseReceipt;
  const rate = parseExchangeRate(input.usdPerMlx);
  if (!rate.ok) throw new Error(`Order ${input.orderId} records an unreadable rate ${JSON.stringify(input.usdPerMlx)}`);
  const mlx = formatMlx(input.mlx, language);
  return layout({
    language,
    company: input.company,
    subject: fill(t.subject, { mlx }),
    greeting: fill(t.greeting, { firstName: input.firstName }),
    paragraphsBeforeLink: [fill(t.body, { mlx })],
    details: [
      { label: t.mlxLabel, value: `${mlx} MLX` },
      { label: t.usdLabel, value: fill(t.usdValue, { usd: formatUsdCents(input.usdCents, language) }) },
      { label: t.rateLabel, value: fill(t.rateValue, { mlxPerUsd: formatMlxPerUsd(rate.rate, language) }) },
      { label: t.orderLabel, value: input.orderId },
      { label: t.transactionLabel, value: input.captureId },
      { label: t.dateLabel, value: fill(t.dateValue, { date: receiptDate(input.creditedAt, language) }) },
    ],
    link: { url: input.receiptUrl, text: t.linkText },
    paragraphsAfterLink: [t.keep],
  });
}

/** The refund claim e-mail (ADR 087): who refunds how much, for what, and the single-use link. */
export function composeInvoiceRefundEmail(
  input: Sender & { language: Language; merchant: string; mlx: string; reference?: string; description?: string; claimUrl: string },
): ComposedEmail {
  const { language } = input;
  const t = emailTexts(language).invoiceRefund;
  const mlx = formatMlx(BigInt(input.mlx), language);
  return layout({
    language,
    company: input.company,
    subject: fill(t.subject, { merchant: input.merchant, mlx }),
    greeting: t.greeting,
    paragraphsBeforeLink: [fill(t.body, { merchant: input.merchant, mlx })],
    details: [
      { label: t.mlxLabel, value: `${mlx} MLX` },
      { label: t.merchantLabel, value: input.merchant },
      ...(input.reference === undefined ? [] : [{ label: t.referenceLabel, value: input.reference }]),
      ...(input.description === undefined ? [] : [{ label: t.descriptionLabel, value: input.description }]),
    ],
    link: { url: input.claimUrl, text: t.linkText },
    paragraphsAfterLink: [t.keep],
    // The payer has no account here: they get this mail because the merchant gave their address.
    footer: fill(t.footer, { merchant: input.merchant, company: input.company }),
  });
}

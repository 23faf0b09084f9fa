/**
 * The approval popup's HTML. Markup only: its behaviour is checkoutnow.js, served separately
 * because the page's CSP allows no inline script. The words are PayPal's side of the checkout
 * (a stand-in used in development and tests, never shown by Quern itself), so they are fixed
 * English here rather than Quern translations; the two button labels are what tests click.
 */
import { LOCAL_BUYER, type LocalPayPalOrderView } from './state.js';

export const POPUP_TEXT = {
  title: 'PayPal Checkout (local)',
  heading: 'Local PayPal checkout',
  approve: 'Approve payment',
  decline: 'Decline card',
  cancel: 'Cancel and return to the shop',
  declineHint: 'Decline card approves with a card that will be declined when the shop captures the payment.',
  working: 'Working…',
  returning: 'Payment approved. Returning to the shop…',
  done: 'Payment approved. You can close this window.',
  failed: 'Something went wrong. Try again.',
  unknownOrder: 'This order does not exist.',
  notApprovable: 'This order can no longer be approved.',
  badOrigin: 'This checkout link is not valid.',
  signedOut: 'Sign in to Quern as the buyer of this order, then open this checkout again. Nothing was approved.',
  notBuyer: 'This order belongs to another Quern account. Only its buyer can approve it. Nothing was approved.',
} as const;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function page(body: string, attributes = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(POPUP_TEXT.title)}</title>
</head>
<body${attributes}>
<main>
<h1>${escapeHtml(POPUP_TEXT.heading)}</h1>
${body}
</main>
</body>
</html>
`;
}

export function errorPage(message: string): string {
  return page(`<p role="alert">${escapeHtml(message)}</p>`);
}

export function approvalPage(order: LocalPayPalOrderView, openerOrigin: string | undefined): string {
  const data: Record<string, string> = {
    'data-token': order.id,
    'data-opener-origin': openerOrigin ?? '',
    'data-text-working': POPUP_TEXT.working,
    'data-text-returning': POPUP_TEXT.returning,
    'data-text-done': POPUP_TEXT.done,
    'data-text-failed': POPUP_TEXT.failed,
  };
  const attributes = Object.entries(data)
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  const amount = `${order.amount.value} ${order.amount.currency_code}`;
  return page(
    `<p>Pay <strong data-testid="amount">${escapeHtml(amount)}</strong> for order <code>${escapeHtml(order.id)}</code>.</p>
<p>Signed in as ${escapeHtml(LOCAL_BUYER.name)} (${escapeHtml(LOCAL_BUYER.email)}).</p>
<p><button type="button" data-action="approve">${escapeHtml(POPUP_TEXT.approve)}</button>
<button type="button" data-action="decline">${escapeHtml(POPUP_TEXT.decline)}</button></p>
<p>${escapeHtml(POPUP_TEXT.declineHint)}</p>
<p><button type="button" data-action="cancel">${escapeHtml(POPUP_TEXT.cancel)}</button></p>
<p id="status" role="status" aria-live="polite"></p>
<script src="checkoutnow.js"></script>`,
    attributes,
  );
}

/**
 * The message the popup posts to the shop that opened it once the order is paid (spec, Checkout
 * message): `{ origin, url, target: 'checkout_window', event: 'checkout', success, token, order,
 * timestamp }`. It goes to one origin only, never '*': the token proves a payment, so only the
 * shop may read it. That origin is the redirect's, else the referrer's (the shop's page that
 * opened the popup); with neither, nothing is posted.
 */
import { httpUrl } from './checkoutQuery.js';

export interface CheckoutMessage {
  origin: string;
  url: string;
  target: 'checkout_window';
  event: 'checkout';
  success: true;
  token: string;
  order: string;
  timestamp: number;
}

/** The shop's origin: the redirect's, else the referrer's when it is an http(s) address. */
export function shopOrigin(redirect: URL | null, referrer: string): string | null {
  if (redirect) return redirect.origin;
  return referrer ? (httpUrl(referrer)?.origin ?? null) : null;
}

export function checkoutMessage(
  location: { origin: string; href: string },
  paid: { token: string; order: string },
  now: number,
): CheckoutMessage {
  return {
    origin: location.origin,
    url: location.href,
    target: 'checkout_window',
    event: 'checkout',
    success: true,
    token: paid.token,
    order: paid.order,
    timestamp: now,
  };
}

/**
 * Posts the message to the opener at the shop's origin. True when it was posted (the popup may
 * then close); false when there is no opener or no origin to post to.
 */
export function postToShop(win: Window, targetOrigin: string | null, message: CheckoutMessage): boolean {
  const opener = win.opener as Window | null;
  if (!opener || !targetOrigin) return false;
  try {
    opener.postMessage(message, targetOrigin);
    return true;
  } catch {
    return false;
  }
}

/**
 * The button's click message to the embedding page (spec section 3: origin, url, target
 * checkout_button, event click, timestamp). The shop's script (/sdk/checkout.js) checks the
 * message's event.origin, not these fields: they only say which Quern page spoke and when.
 */
export interface CheckoutButtonClick {
  origin: string;
  url: string;
  target: 'checkout_button';
  event: 'click';
  /** Milliseconds since the epoch, as Date.now() gives them. */
  timestamp: number;
}

export const checkoutButtonClick = (location: Pick<Location, 'origin' | 'href'>, now: number): CheckoutButtonClick => ({
  origin: location.origin,
  url: location.href,
  target: 'checkout_button',
  event: 'click',
  timestamp: now,
});

/**
 * Posts the click to the embedding page. The target origin is '*' because the button cannot know
 * the shop's origin (any site may embed it, ADR 031) and the message carries nothing secret. Not
 * framed, there is no one to tell.
 */
export function postCheckoutButtonClick(win: Window = window): void {
  if (win.parent === win) return;
  win.parent.postMessage(checkoutButtonClick(win.location, Date.now()), '*');
}

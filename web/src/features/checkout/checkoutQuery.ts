/**
 * Reads the checkout popup's query (spec, Checkout: cart, price, currency, to, redirect, variant,
 * version; and the shop's optional order `reference`, ADR 043). Without price, currency or to there is nothing to pay: the popup goes home. Anything
 * else wrong (a cart that is not JSON or does not add up to the price, another currency, a
 * redirect that is not an http(s) address or is on Quern's own origin) is an error shown with no Pay button. The cart is
 * checked with the same schema the server uses, so the popup never offers what the server refuses.
 */
import { type CheckoutInput, checkoutInput } from '@quern/core/checkout';

export interface CheckoutLine {
  name: string;
  /** Whole MLX as digits. */
  price: string;
  quantity: string;
}

export type CheckoutQuery =
  | { kind: 'incomplete' }
  | { kind: 'invalid'; messageKey: string }
  | {
      kind: 'valid';
      /** What checkout.pay is sent: the same for the same query, so a repeat is the same intent (ADR 029). */
      input: CheckoutInput;
      lines: CheckoutLine[];
      /** Whole MLX as digits. */
      price: string;
      to: string;
      redirect: URL | null;
      variant: string | null;
      version: string | null;
    };

/** The order in which the schema's issues are told, when several fields are wrong. */
const FIELD_ORDER = ['currency', 'cart', 'price', 'to', 'reference'];

const present = (value: string | null): value is string => value !== null && value.trim() !== '';

/** An absolute http(s) address, else null; nothing else may ever be a destination. */
export function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * The checkout's `redirect` (the popup's "Back to shop" link and the origin its message goes to):
 * an absolute http(s) address on another origin than Quern's own, else null. A link to Quern's own
 * origin would be followed with the shopper's session from a Quern page, so it is never offered
 * (ADR 043); the shop's address is by nature elsewhere. `quernOrigins` are the origin the popup is
 * served from and the configured public one.
 */
export function checkoutRedirectOf(text: string, quernOrigins: readonly string[]): URL | null {
  const url = httpUrl(text);
  if (!url) return null;
  const own = new Set(quernOrigins.flatMap((origin) => originOf(origin)));
  return own.has(url.origin) ? null : url;
}

const originOf = (text: string): string[] => {
  try {
    return [new URL(text).origin];
  } catch {
    return [];
  }
};

function parseCart(text: string | null): unknown {
  if (text === null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * `quernOrigins`: the origins a redirect may not point to (the page's own, and the configured
 * public one when the page knows it): a "Back to shop" link there would act with the shopper's session.
 */
export function readCheckoutQuery(params: URLSearchParams, quernOrigins: readonly string[]): CheckoutQuery {
  const price = params.get('price');
  const currency = params.get('currency');
  const to = params.get('to');
  if (!present(price) || !present(currency) || !present(to)) return { kind: 'incomplete' };

  const redirectText = params.get('redirect');
  let redirect: URL | null = null;
  if (redirectText !== null && redirectText !== '') {
    redirect = checkoutRedirectOf(redirectText, quernOrigins);
    if (!redirect) return { kind: 'invalid', messageKey: 'checkout:invalidRedirect' };
  }

  const reference = params.get('reference');
  const parsed = checkoutInput.safeParse({
    cart: parseCart(params.get('cart')),
    price,
    currency,
    to,
    ...(reference === null || reference === '' ? {} : { reference }),
  });
  if (!parsed.success) {
    const issues = [...parsed.error.issues].sort((a, b) => rank(String(a.path[0] ?? '')) - rank(String(b.path[0] ?? '')));
    return { kind: 'invalid', messageKey: issues[0]?.message ?? 'errors:checkoutInvalidCart' };
  }
  const request = parsed.data;
  const lines = request.cart.map((line) => ({
    name: line.name,
    price: line.price.toString(),
    quantity: line.quantity.toString(),
  }));
  return {
    kind: 'valid',
    input: {
      cart: lines,
      price: request.price.toString(),
      currency: 'mlx',
      to: request.to,
      ...(request.reference === undefined ? {} : { reference: request.reference }),
    },
    lines,
    price: request.price.toString(),
    to: request.to,
    redirect,
    variant: params.get('variant'),
    version: params.get('version'),
  };
}

function rank(field: string): number {
  const index = FIELD_ORDER.indexOf(field);
  return index < 0 ? FIELD_ORDER.length : index;
}

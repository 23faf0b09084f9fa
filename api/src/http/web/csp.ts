/**
 * Adjustments to the Content-Security-Policy helmet set (headers.ts) for HTML pages: the
 * prerendered pages carry small inline scripts, allowed by their hashes rather than by
 * 'unsafe-inline'; /checkout-buttons is meant to be embedded in other sites' pages, so only
 * that page may be framed by any origin; and the Buy page runs PayPal's checkout, so only that
 * page may load PayPal's SDK and frames and keep a link to PayPal's popup.
 */
import type { Response } from 'express';

const CSP = 'Content-Security-Policy';

/**
 * PayPal's documented CSP sources for its JavaScript SDK (developer.paypal.com/sdk/js/best-practices):
 * *.paypal.com, *.paypalobjects.com and *.venmo.com for scripts, connections, frames and images.
 * PayPal also recommends 'unsafe-inline' for scripts; it is left out, because browsers ignore it
 * beside the hashes every page's script-src carries, and the SDK runs from its own files.
 */
export const PAYPAL_SOURCES = [
  'https://www.paypal.com',
  'https://*.paypal.com',
  'https://*.paypalobjects.com',
  'https://*.venmo.com',
] as const;
const PAYPAL_DIRECTIVES = ['script-src', 'connect-src', 'frame-src', 'child-src', 'img-src'] as const;

/**
 * Adds the sources to one directive, keeping every other source and directive. A directive the
 * policy lacks is added with 'self' first: it fell back to default-src, which helmet sets to
 * 'self', and adding sources must not take the page's own origin away.
 */
export function withDirectiveSources(policy: string, directive: string, sources: readonly string[]): string {
  if (sources.length === 0) return policy;
  const directives = policy
    .split(';')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const index = directives.findIndex((entry) => entry.split(/\s+/)[0]?.toLowerCase() === directive);
  if (index < 0) directives.push(`${directive} 'self' ${sources.join(' ')}`);
  else directives[index] = `${directives[index]} ${sources.join(' ')}`;
  return directives.join(';');
}

/** Adds the sources to script-src, keeping every other source and directive. */
export function withScriptSources(policy: string, sources: readonly string[]): string {
  return withDirectiveSources(policy, 'script-src', sources);
}

/** The Buy page's policy: helmet's (and the inline script hashes), plus PayPal's sources. */
export function withPayPalSources(policy: string): string {
  return PAYPAL_DIRECTIVES.reduce((current, directive) => withDirectiveSources(current, directive, PAYPAL_SOURCES), policy);
}

export function allowInlineScripts(res: Response, sources: readonly string[]): void {
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, withScriptSources(policy, sources));
}

export function allowAnyFramer(res: Response): void {
  res.removeHeader('X-Frame-Options');
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, policy.replace(/frame-ancestors[^;]*/, 'frame-ancestors *'));
}

/**
 * The checkout popup (/checkout): opened by a shop's page on another origin, it posts the outcome
 * back through `window.opener`, so its opener policy must be `unsafe-none` (any stricter value
 * puts a popup opened cross-origin in a new browsing context group and cuts the opener). It opens
 * PayPal's popup for a top-up, whose link back needs no more than that. It keeps frame-ancestors
 * 'none' and X-Frame-Options DENY: a framed Pay button could be clickjacked.
 */
export function allowCheckoutPopup(res: Response): void {
  res.setHeader('Cross-Origin-Opener-Policy', 'unsafe-none');
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, withPayPalSources(policy));
}

/**
 * The Buy page: PayPal's SDK, its frames and its popup. The popup (PayPal's, or the local
 * server's) posts the approval back to this page through `window.opener`, which helmet's
 * `Cross-Origin-Opener-Policy: same-origin` would cut for a popup of another origin or policy;
 * `same-origin-allow-popups` keeps it while still isolating this page from its own opener.
 */
export function allowPayPalCheckout(res: Response): void {
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin-allow-popups');
  const policy = res.getHeader(CSP);
  if (typeof policy === 'string') res.setHeader(CSP, withPayPalSources(policy));
}

/**
 * Google's documented CSP sources for reCAPTCHA (developers.google.com/recaptcha/docs/faq): its
 * script from www.google.com and www.gstatic.com, its challenge in a frame from www.google.com.
 * Only the contact pages get them, and only when reCAPTCHA is configured (ADR 039); the default
 * captcha, ALTCHA, needs nothing beyond 'self'.
 */
export const RECAPTCHA_SOURCES = {
  'script-src': ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  'frame-src': ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
} as const;

export function allowRecaptcha(res: Response): void {
  const policy = res.getHeader(CSP);
  if (typeof policy !== 'string') return;
  const widened = Object.entries(RECAPTCHA_SOURCES).reduce(
    (current, [directive, sources]) => withDirectiveSources(current, directive, sources),
    policy,
  );
  res.setHeader(CSP, widened);
}

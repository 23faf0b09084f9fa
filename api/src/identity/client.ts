/**
 * The caller of an identity command as the service sees it: its address, its language, and the
 * cookies and Retry-After it is given. Plain values and callbacks, no Express: the http layer
 * (http/identity-client.ts) builds one from a request and its response, so the service never
 * imports the http layer that in turn carries the service in its request context.
 */
import type { Language } from '@quern/core/i18n';

/** What the service sets on its cookies (the http layer maps it onto the framework's options). */
export interface IdentityCookieOptions {
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  path: string;
  /** Unset: a session cookie (or, when clearing, no Max-Age at all). */
  maxAge: number | undefined;
}

export interface IdentityClient {
  /** The address limits count: IPv4 per address, IPv6 per /64 (http/client-address.ts). */
  ip(): string;
  /** The language the answer and the e-mails are in. */
  language(): Language;
  cookie(name: string): string | undefined;
  setCookie(name: string, value: string, options: IdentityCookieOptions): void;
  clearCookie(name: string, options: IdentityCookieOptions): void;
  /** The Retry-After of a 429, in whole seconds. */
  retryAfter(seconds: number): void;
}

/**
 * Where sign-in returns a visitor who opened a protected page. The path travels in the login
 * URL (`?next=`), which anyone can craft, so only a same-site path is accepted: an absolute URL,
 * a protocol-relative '//host' or a backslash form browsers read as one would be an open redirect.
 */
export const RETURN_PARAM = 'next';

export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/')) return null;
  if (raw.startsWith('//') || raw.includes('\\')) return null;
  // Control characters (tabs, newlines) are stripped by URL parsers and could hide a '//'.
  if ([...raw].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  return raw;
}

/** Why sign-in is asked for, when the page the visitor wanted is one a link is shared to. */
export type SignInReason = { key: 'userPlans'; username: string } | { key: 'contact' };

export function signInReason(path: string | null): SignInReason | null {
  if (!path) return null;
  const pathname = path.split(/[?#]/)[0] ?? '';
  const user = /^\/user\/([^/]+)\/?$/.exec(pathname);
  if (user?.[1]) {
    try {
      return { key: 'userPlans', username: decodeURIComponent(user[1]) };
    } catch {
      return null;
    }
  }
  if (pathname === '/contact' || pathname === '/contact/') return { key: 'contact' };
  return null;
}

/**
 * The login URL for a visitor who opened `path`: for the pages links are shared to (a merchant's
 * plans, the contact form) it carries the page, so sign-in says why and returns there; every
 * other protected page sends to the spec's plain /login, as it always has.
 */
export function loginPathFor(path: string): string {
  const safe = safeReturnPath(path);
  return safe && signInReason(safe) ? `/login?${RETURN_PARAM}=${encodeURIComponent(safe)}` : '/login';
}

/**
 * `path` (a visitor page: /register, /password-reset, /login) carrying `next` when it is a
 * same-site path; a foreign or malformed one is dropped, so the link never leads off the site.
 */
export function withReturnPath(path: string, next: string | null | undefined): string {
  const safe = safeReturnPath(next);
  return safe ? `${path}?${RETURN_PARAM}=${encodeURIComponent(safe)}` : path;
}

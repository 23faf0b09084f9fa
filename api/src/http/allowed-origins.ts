/**
 * The origins whose pages may make cookie-authenticated calls (the CSRF check, ADR 007): the
 * PUBLIC_URL's origin, and, only when that is itself a loopback address (a developer's machine,
 * the tests), the loopback names of the port actually bound. On a deployment at a real address a
 * page served from http://localhost (any local program, a developer's own server on the same port
 * number) is another site, and trusting it would let it spend the signed-in user's money.
 */
const LOOPBACK_HOSTS = /^(?:localhost|.+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** Whether the URL names this machine itself. */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK_HOSTS.test(new URL(url).hostname);
}

/** The PUBLIC_URL's origin, and for a loopback PUBLIC_URL the loopback origins of `boundPort`. */
export function allowedOriginsFor(publicUrl: string, boundPort?: number): Set<string> {
  const origins = new Set([new URL(publicUrl).origin]);
  if (boundPort !== undefined && isLoopbackUrl(publicUrl))
    for (const host of ['localhost', '127.0.0.1']) origins.add(`http://${host}:${boundPort}`);
  return origins;
}

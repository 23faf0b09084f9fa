/**
 * A hint, readable before any script loads, that this browser was signed in on its last visit:
 * the `quern.signedIn` cookie. The prerendered pages show the visitor links while the session
 * check runs (ADR 023); index.html's inline script marks the page with `signedInHintClass` when
 * the hint is present, and the CSS keeps those links hidden, so a signed-in user never sees them
 * flash. It grants nothing: the session itself is the httpOnly cookie the server checks.
 */
export const signedInHintCookie = 'quern.signedIn';
export const signedInHintClass = 'signed-in-hint';
const maxAgeSeconds = 30 * 24 * 60 * 60;

/** Records the answer of the session check and drops the page's mark: the check has answered. */
export function rememberSignedIn(signedIn: boolean): void {
  document.cookie = signedIn
    ? `${signedInHintCookie}=1; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax`
    : `${signedInHintCookie}=; Path=/; Max-Age=0; SameSite=Lax`;
  document.body.classList.remove(signedInHintClass);
}

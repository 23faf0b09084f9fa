/**
 * Registers the point of sale's service worker (web/public/pos-sw.js, ADR 085), scoped to /pos,
 * and hands it the app files this page loaded before the worker controlled it (the lazily loaded
 * chunks and translations are not in the HTML the worker fetches at install), so the keypad opens
 * offline after one visit. Returns the effect's cleanup (nothing to undo).
 */
export function registerPosWorker(): undefined {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  navigator.serviceWorker
    .register('/pos-sw.js', { scope: '/pos' })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      const files = performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
        .map((url) => url.pathname);
      registration.active?.postMessage({ type: 'cache-app-files', files });
    })
    .catch(() => {
      // An app that cannot install (a private window, plain http on another host) works as a page.
    });
}

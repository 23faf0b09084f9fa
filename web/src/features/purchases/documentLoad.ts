/**
 * The Buy page needs headers that only a document loaded at /millix/buy carries (PayPal's
 * sources in the CSP, and an opener policy that lets PayPal's popup report back). The app
 * navigates client-side, so the page may be drawn in a document loaded at another path, with
 * that path's strict headers. These helpers tell which path the current document was loaded
 * from, so the page can load itself as a document of its own when it was not.
 */
import { useEffect } from 'react';

/** sessionStorage key: the path the page last reloaded itself for, so it never loops. */
export const RELOAD_MARKER_KEY = 'quern.documentReloadFor';

/** Paths compare as the server matches them: letters case-insensitively, trailing slashes ignored. */
const normalisePath = (path: string): string => (path.replace(/\/+$/, '') || '/').toLowerCase();

/**
 * The path of the URL the current document was loaded from (its navigation entry), or null when
 * the browser does not say (no Navigation Timing, as in jsdom).
 */
export function loadedDocumentPath(entries: readonly PerformanceEntry[]): string | null {
  const entry = entries[0];
  if (!entry?.name) return null;
  try {
    return new URL(entry.name).pathname;
  } catch {
    return null;
  }
}

/** Whether a document loaded at `loadedPath` is a wrong one for the page at `pagePath`. */
export function needsOwnDocument(loadedPath: string | null, pagePath: string): boolean {
  return loadedPath !== null && normalisePath(loadedPath) !== normalisePath(pagePath);
}

export type DocumentDecision = 'ready' | 'reload';

/**
 * 'reload' when the document was loaded elsewhere and the page has not reloaded for this path
 * yet; a second mismatch (a server that redirected, a browser that reports oddly) draws the page
 * anyway rather than reloading forever.
 */
export function decideDocument(loadedPath: string | null, pagePath: string, reloadedFor: string | null): DocumentDecision {
  if (!needsOwnDocument(loadedPath, pagePath)) return 'ready';
  return reloadedFor !== null && normalisePath(reloadedFor) === normalisePath(pagePath) ? 'ready' : 'reload';
}

function readMarker(): string | null {
  try {
    return sessionStorage.getItem(RELOAD_MARKER_KEY);
  } catch {
    return null;
  }
}

function writeMarker(value: string | null): void {
  try {
    if (value === null) sessionStorage.removeItem(RELOAD_MARKER_KEY);
    else sessionStorage.setItem(RELOAD_MARKER_KEY, value);
  } catch {
    // Storage refused (private mode): at worst the page reloads once more, then draws anyway.
  }
}

/** Decides once, when the page first renders in this document. */
export function documentDecisionFor(pagePath: string): DocumentDecision {
  const entries = typeof performance.getEntriesByType === 'function' ? performance.getEntriesByType('navigation') : [];
  return decideDocument(loadedDocumentPath(entries), pagePath, readMarker());
}

/**
 * Loads the current URL as a new document when `decision` says so (the path is already the
 * page's: the client navigation put it there). A ready page clears the marker, so a later visit
 * from another document may reload again.
 */
export function useOwnDocument(decision: DocumentDecision, pagePath: string): void {
  useEffect(() => {
    if (decision === 'ready') {
      writeMarker(null);
      return;
    }
    writeMarker(pagePath);
    window.location.reload();
  }, [decision, pagePath]);
}

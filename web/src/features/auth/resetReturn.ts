/**
 * Where a password reset returns the visitor (the checkout popup they left, say). The reset link
 * opens from the mailbox, usually in another tab, so the path cannot ride in the page's URL; it is
 * kept in this browser's localStorage instead of the mailed link (nothing the server signs or
 * mails carries it). It is read back through safeReturnPath, so a value planted by anything else
 * can never send the visitor off the site, and it expires with the reset link's usefulness.
 */
import { safeReturnPath } from './returnPath.js';

const STORAGE_KEY = 'quern.resetReturn';
/** As long as a reset link is worth using; a later reset starts from a clean slate. */
export const RESET_RETURN_TTL_MS = 60 * 60 * 1000;

interface Stored {
  path: string;
  savedAtMs: number;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** Keeps `path` for the reset that is being requested; an unsafe path clears what was kept. */
export function rememberResetReturn(path: string | null, nowMs: number): void {
  const store = storage();
  if (!store) return;
  const safe = safeReturnPath(path);
  try {
    if (safe) store.setItem(STORAGE_KEY, JSON.stringify({ path: safe, savedAtMs: nowMs } satisfies Stored));
    else store.removeItem(STORAGE_KEY);
  } catch {
    // A full or disabled storage only loses the way back, never the reset itself.
  }
}

/** The kept path if it is still fresh and same-site, else null. */
export function resetReturnPath(nowMs: number): string | null {
  const raw = storage()?.getItem(STORAGE_KEY);
  if (!raw) return null;
  try {
    const stored = JSON.parse(raw) as Partial<Stored>;
    if (typeof stored.path !== 'string' || typeof stored.savedAtMs !== 'number') return null;
    const age = nowMs - stored.savedAtMs;
    if (age < 0 || age > RESET_RETURN_TTL_MS) return null;
    return safeReturnPath(stored.path);
  } catch {
    return null;
  }
}

import { useSyncExternalStore } from 'react';

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

/** Null where the browser (or a test DOM) has no matchMedia; motion is then allowed. */
const mediaQueryList = (): MediaQueryList | null =>
  typeof window.matchMedia === 'function' ? window.matchMedia(reducedMotionQuery) : null;

function subscribe(onChange: () => void): () => void {
  const list = mediaQueryList();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

const readPreference = (): boolean => mediaQueryList()?.matches ?? false;
/** Prerendered pages carry the animated list; a reduced-motion visitor's page switches on hydration. */
const motionOnServer = (): boolean => false;

/**
 * Whether the user asked the system for less motion. It follows changes while the page is open,
 * so switching the setting stops the slogans at once rather than on the next visit.
 */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, readPreference, motionOnServer);
}

/**
 * The dark-mode preference: stored as "1" or "0" (the spec's values) and applied as a class on
 * <body>. The inline script of index.html applies the same key before the first paint; the
 * prerendered pages are drawn light, and the switch reads the class, so nothing flashes.
 */
import { useCallback, useSyncExternalStore } from 'react';

export const darkModeStorageKey = 'quern.darkMode';
export const darkModeClass = 'dark-mode';

export function readStoredDarkMode(): boolean {
  try {
    return localStorage.getItem(darkModeStorageKey) === '1';
  } catch {
    // Storage can be disabled (privacy modes); the light theme then applies.
    return false;
  }
}

export function applyDarkMode(enabled: boolean): void {
  document.body.classList.toggle(darkModeClass, enabled);
}

const listeners = new Set<() => void>();

export function storeDarkMode(enabled: boolean): void {
  try {
    localStorage.setItem(darkModeStorageKey, enabled ? '1' : '0');
  } catch {
    // Without storage the choice lasts until the next reload, which is the best we can do.
  }
  applyDarkMode(enabled);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isApplied = (): boolean => document.body.classList.contains(darkModeClass);
/** A prerendered page is the light theme; hydration starts from that and then reads the page. */
const lightOnServer = (): boolean => false;

/** The current preference (as applied to the page) and a setter that stores and applies it. */
export function useDarkMode(): [boolean, (enabled: boolean) => void] {
  const enabled = useSyncExternalStore(subscribe, isApplied, lightOnServer);
  const set = useCallback((next: boolean) => storeDarkMode(next), []);
  return [enabled, set];
}

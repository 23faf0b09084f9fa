/**
 * The dark-mode preference: stored as "1" or "0" (the spec's values) and applied as a class on
 * <body>. public/preferences.js applies the same key before the app starts.
 */
import { useCallback, useState } from 'react';

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

export function storeDarkMode(enabled: boolean): void {
  try {
    localStorage.setItem(darkModeStorageKey, enabled ? '1' : '0');
  } catch {
    // Without storage the choice lasts until the next reload, which is the best we can do.
  }
  applyDarkMode(enabled);
}

/** The current preference and a setter that stores and applies it. */
export function useDarkMode(): [boolean, (enabled: boolean) => void] {
  const [enabled, setEnabled] = useState(readStoredDarkMode);
  const set = useCallback((next: boolean) => {
    storeDarkMode(next);
    setEnabled(next);
  }, []);
  return [enabled, set];
}

/**
 * The chosen language: kept in localStorage so it survives a reload, and mirrored on <html lang>
 * so screen readers pronounce the page correctly. public/preferences.js reads the same key
 * before the app starts.
 */
import { defaultLanguage, isLanguage, type Language } from './languages.js';

export const languageStorageKey = 'quern.language';

export function readStoredLanguage(): Language {
  try {
    const stored = localStorage.getItem(languageStorageKey);
    return isLanguage(stored) ? stored : defaultLanguage;
  } catch {
    // Storage can be disabled (privacy modes); the default language then applies.
    return defaultLanguage;
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Without storage the choice lasts until the next reload, which is the best we can do.
  }
  document.documentElement.lang = language;
}

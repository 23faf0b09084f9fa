/**
 * The chosen language: kept in localStorage so it survives a reload, in the `quern.language`
 * cookie so the server can send the prerendered page in that language (ADR 023), and mirrored on
 * <html lang> so screen readers pronounce the page correctly.
 */
import { defaultLanguage, isLanguage, type Language } from './languages.js';

export const languageStorageKey = 'quern.language';
/** Read by the server (api/src/http/web); the name and values must match there. */
export const languageCookie = 'quern.language';
const cookieMaxAgeSeconds = 365 * 24 * 60 * 60;

/** The language stored by an earlier choice, or null when there was none (or storage is off). */
export function readStoredLanguageChoice(): Language | null {
  try {
    const stored = localStorage.getItem(languageStorageKey);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

export function readStoredLanguage(): Language {
  return readStoredLanguageChoice() ?? defaultLanguage;
}

/** The language the server chose for this page (its <html lang>), when it is one of ours. */
export function servedLanguage(): Language | null {
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : null;
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(languageStorageKey, language);
  } catch {
    // Without storage the choice lasts until the next reload, which is the best we can do.
  }
  // Not secret and read by no script but ours: a plain first-party cookie, sent on page loads only.
  document.cookie = `${languageCookie}=${language}; Path=/; Max-Age=${cookieMaxAgeSeconds}; SameSite=Lax`;
  document.documentElement.lang = language;
}

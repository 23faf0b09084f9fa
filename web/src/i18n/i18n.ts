/**
 * Starts i18next for the web app: English (default and fallback) and Spanish, namespaces loaded
 * lazily, the language taken from localStorage and kept there when the user changes it.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, isLanguage, languages } from './languages.js';
import { lazyLocaleBackend } from './backend.js';
import { readStoredLanguage, storeLanguage } from './language.js';

export function startI18n(): Promise<unknown> {
  i18next.on('languageChanged', (language) => {
    if (isLanguage(language)) storeLanguage(language);
  });
  return i18next
    .use(lazyLocaleBackend)
    .use(initReactI18next)
    .init({
      lng: readStoredLanguage(),
      fallbackLng: defaultLanguage,
      supportedLngs: [...languages],
      // Only the exact codes exist ("en", "es"); this stops requests for regional variants.
      load: 'currentOnly',
      ns: ['common'],
      defaultNS: 'common',
      // React escapes text itself; escaping here too would show "&amp;" to users.
      interpolation: { escapeValue: false },
      react: { useSuspense: true },
    });
}

/**
 * i18next for the web app: English (default and fallback) and Spanish, namespaces loaded lazily.
 * The browser starts in the language the server rendered the page in; the prerenderer makes one
 * instance per language. A choice the user makes is stored (language.ts) from then on.
 */
import i18next, { createInstance, type FormatterModule, type i18n as I18n, type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { defaultLanguage, isLanguage, languages, type Language } from './languages.js';
import { lazyLocaleBackend } from './backend.js';
import { formatInterpolation } from './format.js';
import { storeLanguage } from './language.js';

const options = (language: Language): InitOptions => ({
  lng: language,
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  // Only the exact codes exist ("en", "es"); this stops requests for regional variants.
  load: 'currentOnly',
  ns: ['common'],
  defaultNS: 'common',
  // React escapes text itself; escaping here too would show "&amp;" to users.
  // alwaysFormat: every {{param}} goes through the formatter below (format.ts), so amounts and
  // dates a string carries (a server error's "requiredMlx": "300000") read in the page's language.
  interpolation: { escapeValue: false, alwaysFormat: true },
  react: { useSuspense: true },
});

/**
 * i18next's formatter module, replaced by Quern's one: the strings use no named formats
 * ("{{x, number}}"), only parameters, each formatted by its name (format.ts).
 */
export const quernFormatter: FormatterModule = {
  type: 'formatter',
  init: () => {},
  add: () => {},
  addCached: () => {},
  // i18next hands non-string values through as they are; the declared string is only its typing.
  format: (value, _format, lng, options) =>
    formatInterpolation(value, lng, (options as { interpolationkey?: unknown } | undefined)?.interpolationkey) as string,
};

/**
 * The browser's instance. Resolves once the shell's strings ('common') are loaded. `bundled`: the
 * strings a prerendered page shipped with it (namespace -> strings); they are ready at once, so
 * the page hydrates without waiting for a file, and other namespaces still load lazily.
 */
export async function startI18n(language: Language, bundled?: Record<string, Record<string, unknown>>): Promise<void> {
  const init = options(language);
  if (bundled) Object.assign(init, { resources: { [language]: bundled }, partialBundledLanguages: true, initAsync: false });
  await i18next.use(lazyLocaleBackend).use(quernFormatter).use(initReactI18next).init(init);
  // Registered after init, so only a change (the language menu, or the stored choice applied on
  // start) is stored; a language taken from the browser's Accept-Language is not a choice.
  i18next.on('languageChanged', (changed) => {
    if (isLanguage(changed)) storeLanguage(changed);
  });
}

/** A separate instance for rendering one language at build time (prerender). */
export async function createI18n(language: Language): Promise<I18n> {
  const instance = createInstance();
  await instance.use(lazyLocaleBackend).use(quernFormatter).init(options(language));
  return instance;
}

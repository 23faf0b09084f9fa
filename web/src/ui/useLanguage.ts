import { useTranslation } from 'react-i18next';
import { defaultLanguage, isLanguage, type Language } from '../i18n/languages.js';

/** The language numbers are written in: the one on screen, or English while none is resolved. */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : defaultLanguage;
}

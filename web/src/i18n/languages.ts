/**
 * The app's languages: English (default and fallback) and Spanish.
 *
 * core/src/i18n/index.ts declares the same list, but it also imports the server's error strings
 * in both languages; importing it here would put those into the first download of every page.
 * i18n/parity.unit.spec.ts checks that the two lists agree.
 */
export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

/**
 * The i18n resources. Every user-visible string lives once, in locales/<lang>/<namespace>.json,
 * English and Spanish side by side. The web app loads namespaces lazily; the server uses the
 * small `errors` namespace to put readable messages into API error bodies.
 */
import enErrors from './locales/en/errors.json' with { type: 'json' };
import esErrors from './locales/es/errors.json' with { type: 'json' };
import enDirect from './locales/en/direct.json' with { type: 'json' };
import esDirect from './locales/es/direct.json' with { type: 'json' };
import enBilling from './locales/en/billing.json' with { type: 'json' };
import esBilling from './locales/es/billing.json' with { type: 'json' };
import { formatMessageParams } from './format.js';

export * from './format.js';

export const languages = ['en', 'es'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (languages as readonly string[]).includes(value);

const errorMessages: Record<Language, Record<string, string>> = { en: enErrors, es: esErrors };

/**
 * Fills a template's {{name}} params, each written as the reader's language writes it: amounts
 * grouped ("300,000" / "300.000"), instants as dates, in UTC since a server message has no
 * viewer's zone (format.ts). The one place server text meets its parameters.
 */
function fill(template: string, language: Language, params: Record<string, string | number>): string {
  const shown = formatMessageParams(params, language, { timeZone: 'UTC', showZone: true });
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(shown[name] ?? ''));
}

/**
 * Resolves an "errors:key" message key to text, interpolating {{name}} params. Unknown keys
 * fall back to English and then to the key itself, so a missing string is visible, not blank.
 */
export function errorText(messageKey: string, language: Language = defaultLanguage, params: Record<string, string | number> = {}): string {
  const key = messageKey.startsWith('errors:') ? messageKey.slice('errors:'.length) : messageKey;
  const template = errorMessages[language][key] ?? errorMessages.en[key] ?? messageKey;
  return fill(template, language, params);
}

const directMessages: Record<Language, Record<string, string>> = { en: enDirect, es: esDirect };

/** The API Direct calls' success messages (the spec's `message`), in the caller's language. */
export function directText(key: 'keyGenerated' | 'keyDeleted', language: Language = defaultLanguage): string {
  return directMessages[language][key] ?? directMessages.en[key] ?? key;
}

const billingMessages: Record<Language, Record<string, string>> = { en: enBilling, es: esBilling };
export type BillingMessageKey = keyof typeof enBilling;

/** The plan and subscription calls' success messages (the spec's `message`), in the caller's language. */
export function billingText(
  key: BillingMessageKey,
  language: Language = defaultLanguage,
  params: Record<string, string | number> = {},
): string {
  const template = billingMessages[language][key] ?? billingMessages.en[key] ?? key;
  return fill(template, language, params);
}

/**
 * The e-mail texts, from the i18n resources where every user-visible string lives. They are read
 * through a relative path because @quern/core exports folders, not single resource files.
 */
import type { Language } from '@quern/core/i18n';
import en from '@quern/core/locales/en/email.json' with { type: 'json' };
import es from '@quern/core/locales/es/email.json' with { type: 'json' };

export type EmailTexts = typeof en;

const texts: Record<Language, EmailTexts> = { en, es };

export const emailTexts = (language: Language): EmailTexts => texts[language];

/** Fills {{name}} placeholders; a missing parameter is an error, never an empty gap in a mail. */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`E-mail text needs the parameter ${name}`);
    return String(value);
  });
}

// Proves every translation namespace in core/src/i18n/locales exists in both languages with
// exactly the same keys and placeholders, and that the web app's language list matches core's.
import { languages as coreLanguages } from '@quern/core/i18n';
import { describe, expect, it } from 'vitest';
import { languages } from './languages.js';

const files = import.meta.glob<unknown>('../../../core/src/i18n/locales/*/*.json', { eager: true, import: 'default' });

const parsePath = (path: string) => {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match?.[1] || !match[2]) throw new Error(`Unexpected locale path ${path}`);
  return { language: match[1], namespace: match[2] };
};

const namespacesOf = (language: string): string[] =>
  Object.keys(files)
    .map(parsePath)
    .filter((file) => file.language === language)
    .map((file) => file.namespace)
    .sort();

const resource = (language: string, namespace: string): unknown => files[`../../../core/src/i18n/locales/${language}/${namespace}.json`];

/** Every leaf as "path" -> text, e.g. "nav.login" -> "Sign in"; arrays index like "items.0". */
function leaves(value: unknown, path = ''): Map<string, unknown> {
  if (typeof value !== 'object' || value === null) return new Map([[path, value]]);
  return new Map(Object.entries(value).flatMap(([key, item]) => [...leaves(item, path ? `${path}.${key}` : key)]));
}

const placeholders = (text: unknown): string[] => (String(text).match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();

describe('translation parity', () => {
  it('given the locale folders, when listed, then Spanish has exactly the namespaces English has', () => {
    expect(namespacesOf('en').length).toBeGreaterThan(0);
    expect(namespacesOf('es')).toEqual(namespacesOf('en'));
  });

  it("given the web app, when it lists languages, then they are core's languages and each has a folder", () => {
    expect([...languages]).toEqual([...coreLanguages]);
    for (const language of languages) expect(namespacesOf(language).length, language).toBeGreaterThan(0);
  });

  describe.each(namespacesOf('en'))('namespace %s', (namespace) => {
    const english = leaves(resource('en', namespace));
    const spanish = leaves(resource('es', namespace));

    it('given both languages, then they have exactly the same keys', () => {
      expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
    });

    it('given both languages, then every text is a non-empty string with the same placeholders', () => {
      for (const [key, text] of english) {
        const translated = spanish.get(key);
        expect(typeof text === 'string' && text.trim() !== '', `en ${key}`).toBe(true);
        expect(typeof translated === 'string' && translated.trim() !== '', `es ${key}`).toBe(true);
        expect(placeholders(translated), `es ${key}`).toEqual(placeholders(text));
      }
    });
  });
});

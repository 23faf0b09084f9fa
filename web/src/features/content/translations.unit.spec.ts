// Proves the English and Spanish files of the public pages have the same keys and list lengths,
// so no Spanish page silently misses a paragraph, a list item or a question.
import { describe, expect, it } from 'vitest';

const namespaces = [
  'home',
  'about',
  'faqs',
  'privacy',
  'terms',
  'wordpress',
  'sell',
  'checkoutButton',
  'developers',
  'apiReference',
] as const;
const files = import.meta.glob<unknown>('../../../../core/src/i18n/locales/*/*.json', { eager: true, import: 'default' });
const load = (language: string, namespace: string): unknown => files[`../../../../core/src/i18n/locales/${language}/${namespace}.json`];

/** Every path to a leaf, with list lengths, e.g. "groups.general.items[15]". */
function shape(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return [`${path}[${value.length}]`, ...value.flatMap((item, index) => shape(item, `${path}[${index}]`))];
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => shape(item, `${path}.${key}`));
  return [`${path}:${typeof value}`];
}

/** The {{placeholders}} a text uses; a translation must keep them all. */
const placeholders = (value: unknown): string[] => (JSON.stringify(value).match(/\{\{\w+\}\}/g) ?? []).sort();

describe.each(namespaces)('translations of %s', (namespace) => {
  it('given both languages, when compared, then they have the same keys, list lengths and placeholders', () => {
    const english = load('en', namespace);
    const spanish = load('es', namespace);
    expect(english, 'English file').toBeDefined();
    expect(spanish, 'Spanish file').toBeDefined();

    expect(shape(spanish)).toEqual(shape(english));
    expect(placeholders(spanish)).toEqual(placeholders(english));
  });

  it('given both languages, when read, then no text is empty or left as placeholder copy', () => {
    for (const language of ['en', 'es']) {
      const text = JSON.stringify(load(language, namespace));
      // Case-sensitive: Spanish "todo" (everything) is a word, "TODO" is a placeholder.
      expect(text).not.toMatch(/\b(lorem|ipsum|TODO|TBD|FIXME|XXX)\b/);
      expect(text).not.toContain('""');
    }
  });
});

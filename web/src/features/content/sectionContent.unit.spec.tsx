// Proves that translated text is checked for shape before it renders, and that only Quern's own
// mailboxes become links.
import type { TFunction } from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkedText } from './LinkedText.js';
import { render, type Rendered } from '../../../test/renderForTest.js';
import { isFaqItem, isSectionContent, readContent } from './sectionContent.js';

let page: Rendered | undefined;
afterEach(() => page?.unmount());

/** A stand-in for i18next's t that returns one fixed value, as a broken translation file would. */
const tReturning = (value: unknown) => (() => value) as unknown as TFunction;

describe('section shape', () => {
  it('given a well-formed section, when checked, then it is accepted', () => {
    expect(isSectionContent({ heading: 'Security', body: ['a'], list: ['b'], subsections: [{ heading: 'c', steps: ['d'] }] })).toBe(true);
  });

  it.each([
    ['a missing key, which i18next returns as the key itself', 'sections.security'],
    ['no heading', { body: ['a'] }],
    ['a paragraph that is not text', { heading: 'x', body: [1] }],
    ['a list that is one string', { heading: 'x', list: 'a' }],
    ['a malformed subsection', { heading: 'x', subsections: [{ body: ['a'] }] }],
  ])('given %s, when read, then readContent throws naming the key', (_, value) => {
    expect(isSectionContent(value)).toBe(false);
    expect(() => readContent(tReturning(value), 'sections.security', isSectionContent)).toThrow('"sections.security"');
  });

  it('given FAQ items, when checked, then a question without an answer list is refused', () => {
    expect(isFaqItem({ question: 'Q?', answer: ['A.'] })).toBe(true);
    expect(isFaqItem({ question: 'Q?', answer: 'A.' })).toBe(false);
    expect(isFaqItem({ answer: ['A.'] })).toBe(false);
  });
});

describe('LinkedText', () => {
  it('given text naming both mailboxes, when rendered, then each becomes a mailto link and the rest stays text', async () => {
    page = await render(<LinkedText text="Write to support@quern.example or sales@quern.example today." />);

    const links = Array.from(page.container.querySelectorAll('a'), (a) => a.getAttribute('href'));
    expect(links).toEqual(['mailto:support@quern.example', 'mailto:sales@quern.example']);
    expect(page.container.textContent).toBe('Write to support@quern.example or sales@quern.example today.');
  });

  it('given an address we did not configure, when rendered, then it is not linked', async () => {
    page = await render(<LinkedText text="Never write to support@quern-example.evil." />);

    expect(page.container.querySelectorAll('a')).toHaveLength(0);
  });
});

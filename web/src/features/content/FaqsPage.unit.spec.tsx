// Proves the FAQ page shows exactly 15 general and 14 merchant questions as disclosure widgets in
// English and Spanish, and answers truthfully about two-factor authentication, rewards and refunds.
import { afterEach, describe, expect, it } from 'vitest';
import FaqsPage from './FaqsPage.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';

let page: Rendered | undefined;
afterEach(() => page?.unmount());

const questionsIn = (container: HTMLElement, group: string) =>
  Array.from(container.querySelectorAll(`[data-faq-group="${group}"] details`), (details) => ({
    question: details.querySelector('summary')?.textContent?.trim() ?? '',
    answer: details.querySelector('.faq__answer')?.textContent?.trim() ?? '',
  }));

describe.each<[TestLanguage, string, string]>([
  ['en', 'General Questions', 'Merchant Services FAQs'],
  ['es', 'Preguntas generales', 'Preguntas frecuentes sobre servicios para comercios'],
])('FAQ page in %s', (language, generalHeading, merchantHeading) => {
  it('given the page, when rendered, then it lists 15 general and 14 merchant questions under their headings', async () => {
    page = await render(<FaqsPage />, { language });

    const groupHeadings = Array.from(page.container.querySelectorAll('[data-faq-group] > h2'), (h) => h.textContent);
    expect(groupHeadings).toEqual([generalHeading, merchantHeading]);
    expect(questionsIn(page.container, 'general')).toHaveLength(15);
    expect(questionsIn(page.container, 'merchant')).toHaveLength(14);
  });

  it('given the page, when rendered, then every question has a distinct text and a non-empty answer, closed by default', async () => {
    page = await render(<FaqsPage />, { language });

    const all = [...questionsIn(page.container, 'general'), ...questionsIn(page.container, 'merchant')];
    expect(new Set(all.map((item) => item.question)).size).toBe(29);
    for (const item of all) {
      expect(item.question.length).toBeGreaterThan(5);
      expect(item.answer.length).toBeGreaterThan(20);
    }
    expect(page.container.querySelectorAll('details[open]')).toHaveLength(0);
  });
});

describe('FAQ answers', () => {
  it('given the English FAQ, when reading the sensitive answers, then they state what exists today', async () => {
    page = await render(<FaqsPage />);
    const answers = questionsIn(page.container, 'general').concat(questionsIn(page.container, 'merchant'));
    const answerTo = (fragment: string) => answers.find((item) => item.question.includes(fragment))?.answer ?? '';

    expect(answerTo('two-factor')).toMatch(/^Not yet\./);
    expect(answerTo('rewards')).toMatch(/^No\. Quern has no rewards programme/);
    expect(answerTo('refunds')).toContain('not issued automatically');
    expect(answerTo('refunds')).toContain('3 business days');
    expect(answerTo('refunds')).toContain('5 business days');
  });

  it('given an answer naming the sales mailbox, when rendered, then the address is a mailto link', async () => {
    page = await render(<FaqsPage />);

    const salesLinks = Array.from(page.container.querySelectorAll('a[href="mailto:sales@quern.example"]'));
    expect(salesLinks.length).toBeGreaterThan(0);
    expect(salesLinks.every((link) => link.textContent === 'sales@quern.example')).toBe(true);
  });
});

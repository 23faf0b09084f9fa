// Proves each public page renders the headings and rules the spec names, in English and Spanish,
// with one h1 and no skipped heading level.
import { afterEach, describe, expect, it } from 'vitest';
import AboutPage from './AboutPage.js';
import DevelopersPage from './DevelopersPage.js';
import PrivacyPolicyPage from './PrivacyPolicyPage.js';
import SellPage from './SellPage.js';
import TermsOfServicePage from './TermsOfServicePage.js';
import WordpressPage from './WordpressPage.js';
import { headingOutline, render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import type { ReactElement } from 'react';

let page: Rendered | undefined;
afterEach(() => page?.unmount());

const pages: [string, () => ReactElement][] = [
  ['about', () => <AboutPage />],
  ['privacy', () => <PrivacyPolicyPage />],
  ['terms', () => <TermsOfServicePage />],
  ['wordpress', () => <WordpressPage />],
  ['developers', () => <DevelopersPage />],
  ['sell', () => <SellPage />],
];

describe.each<TestLanguage>(['en', 'es'])('page structure in %s', (language) => {
  it.each(pages)('given the %s page, when rendered, then it has one h1 and its headings never skip a level', async (_, element) => {
    page = await render(element(), { language });

    const levels = headingOutline(page.container).map((line) => Number(line[1]));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    for (let index = 1; index < levels.length; index += 1) {
      expect(levels[index]! - levels[index - 1]!).toBeLessThanOrEqual(1);
    }
    // A missing translation would show as its key (for example "sections.mission.heading").
    expect(page.container.textContent).not.toMatch(/\b(sections|groups|links|tested)\.\w+/);
  });
});

describe('About', () => {
  it('given English, when rendered, then it shows the spec sections in order, with shoppers and businesses', async () => {
    page = await render(<AboutPage />);

    expect(headingOutline(page.container)).toEqual([
      'h1 About Quern',
      'h2 Who We Are',
      'h2 Our Mission',
      'h2 The Millix Advantage',
      'h2 What We Offer',
      'h3 For shoppers',
      'h3 For businesses',
      'h2 Our Vision',
      'h2 Get Started Today',
    ]);
    expect(page.container.querySelector('a[href="/register"]')?.textContent).toBe('Create your account');
  });

  it('given Spanish, when rendered, then the same sections appear translated', async () => {
    page = await render(<AboutPage />, { language: 'es' });

    expect(headingOutline(page.container)).toEqual([
      'h1 Acerca de Quern',
      'h2 Quiénes somos',
      'h2 Nuestra misión',
      'h2 La ventaja de millix',
      'h2 Lo que ofrecemos',
      'h3 Para compradores',
      'h3 Para empresas',
      'h2 Nuestra visión',
      'h2 Empiece hoy',
    ]);
  });
});

describe('Privacy Policy', () => {
  it('given English, when rendered, then it shows the effective date and the spec sections in order', async () => {
    page = await render(<PrivacyPolicyPage />);

    expect(page.container.textContent).toContain('Effective date: September 13, 2023');
    expect(headingOutline(page.container)).toEqual([
      'h1 Privacy Policy',
      'h2 Information We Collect',
      'h2 How We Use Your Information',
      'h2 Sharing Your Information',
      'h2 Information Collected Automatically',
      'h2 Security',
      'h2 Your Right to Deletion',
      'h2 Children Under Thirteen',
      'h2 E-mail Communications',
      'h2 Data Storage',
      'h2 Changes to This Policy',
      'h2 Contact Us',
    ]);
    expect(page.container.textContent).toContain('Quern does not receive or store your full card number');
  });

  it('given Spanish, when rendered, then the effective date is written in Spanish', async () => {
    page = await render(<PrivacyPolicyPage />, { language: 'es' });

    expect(page.container.textContent).toContain('13 de septiembre de 2023');
    expect(page.container.querySelectorAll('h2')).toHaveLength(11);
  });
});

describe('Terms of Service', () => {
  it('given English, when rendered, then it states the cancellation, refund, age and law rules', async () => {
    page = await render(<TermsOfServicePage />);
    const text = page.container.textContent ?? '';

    expect(text).toContain('within 3 business days of placing it');
    expect(text).toContain('within 5 business days by contacting our sales team at sales@quern.example');
    expect(text).toContain('original payment method on the first available business day');
    expect(text).toContain('under eighteen, you may use Quern only with the permission of a parent or guardian');
    expect(text).toContain('governed by the laws of the State of Florida');
    expect(headingOutline(page.container)).toContain('h2 Cancellations and Refunds');
  });

  it('given Spanish, when rendered, then the same rules are stated in Spanish', async () => {
    page = await render(<TermsOfServicePage />, { language: 'es' });
    const text = page.container.textContent ?? '';

    expect(text).toContain('3 días hábiles');
    expect(text).toContain('5 días hábiles');
    expect(text).toContain('Estado de Florida');
    expect(text).toContain('menor de dieciocho años');
  });
});

describe('WordPress plugin guide', () => {
  it('given no tested versions were configured, when rendered, then each reads "Not yet published"', async () => {
    page = await render(<WordpressPage />);

    const rows = Array.from(page.container.querySelectorAll('tbody tr'), (row) => row.textContent);
    expect(rows).toEqual(['PHPNot yet published', 'WordPressNot yet published', 'WooCommerceNot yet published', 'DokanNot yet published']);
    expect(headingOutline(page.container)).toEqual([
      'h1 Quern Payment Gateway for WooCommerce',
      'h2 Requirements',
      'h2 Tested Versions',
      'h2 Setting Up the Gateway',
      'h2 Multi-Vendor Instant Payouts with Dokan',
      'h2 Classic Checkout Required',
      'h2 Keeping Your API Key Safe',
      'h2 Getting Help',
    ]);
    expect(page.container.querySelectorAll('ol.content-steps > li')).toHaveLength(6);
  });
});

describe('Sell', () => {
  it.each<[TestLanguage, string, string, string]>([
    ['en', 'Sell millix', 'Temporary unavailable', 'Coming soon'],
    ['es', 'Vender millix', 'No disponible temporalmente', 'Próximamente'],
  ])('given %s, when rendered, then selling is unavailable and conversion is coming soon', async (language, heading, status, badge) => {
    page = await render(<SellPage />, { language });

    expect(page.container.querySelector('h1')?.textContent).toBe(heading);
    expect(page.container.querySelector('.content-notice__title')?.textContent).toBe(status);
    expect(page.container.querySelector('.content-badge')?.textContent).toBe(badge);
  });
});

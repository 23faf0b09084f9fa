/**
 * What the content e2e specs share: the public pages with the strings they must show (read from
 * the real translation files, so the browser tests check the built app against the same text the
 * unit tests pin), and the browser preferences the app reads from localStorage.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { loginByApi, registerByApi, uniqueUser } from './users.js';

export type Language = 'en' | 'es';
export type Theme = 'light' | 'dark';

export const viewports = [
  { name: 'mobile', width: 375, height: 812 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
export const themes: readonly Theme[] = ['light', 'dark'];

const localesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'core', 'src', 'i18n', 'locales');

export function readLocale<T>(language: Language, namespace: string): T {
  return JSON.parse(readFileSync(join(localesDir, language, `${namespace}.json`), 'utf8')) as T;
}

interface SectionsFile {
  heading: string;
  sections: Record<string, { heading: string }>;
}
interface FaqsFile {
  heading: string;
  groups: Record<'general' | 'merchant', { heading: string; items: unknown[] }>;
}
interface SellFile {
  heading: string;
  conversionHeading: string;
  comingSoon: string;
}

export interface ContentPage {
  name: string;
  path: string;
  signedIn: boolean;
  /** The h1 and, in order, the h2s the page must show in a language. */
  headings(language: Language): { h1: string; h2: string[] };
}

const sectioned = (name: string, path: string, namespace: string): ContentPage => ({
  name,
  path,
  signedIn: false,
  headings(language) {
    // The files list sections in reading order, as the page components do.
    const file = readLocale<SectionsFile>(language, namespace);
    return { h1: file.heading, h2: Object.values(file.sections).map((section) => section.heading) };
  },
});

export const contentPages: readonly ContentPage[] = [
  sectioned('about', '/about', 'about'),
  {
    name: 'faqs',
    path: '/faqs',
    signedIn: false,
    headings(language) {
      const file = readLocale<FaqsFile>(language, 'faqs');
      return { h1: file.heading, h2: [file.groups.general.heading, file.groups.merchant.heading] };
    },
  },
  sectioned('privacy-policy', '/privacy-policy', 'privacy'),
  sectioned('terms-of-service', '/terms-of-service', 'terms'),
  sectioned('wordpress', '/wordpress', 'wordpress'),
  {
    name: 'sell',
    path: '/millix/sell',
    signedIn: true,
    headings(language) {
      const file = readLocale<SellFile>(language, 'sell');
      // The Coming soon badge sits inside the heading it qualifies.
      return { h1: file.heading, h2: [`${file.conversionHeading} ${file.comingSoon}`] };
    },
  },
];

/** Sets the theme and language the app reads from localStorage before it starts. */
export async function usePreferences(
  page: Page,
  { theme = 'light', language = 'en' }: { theme?: Theme; language?: Language },
): Promise<void> {
  await page.addInitScript(
    ([darkMode, lng]) => {
      localStorage.setItem('quern.darkMode', darkMode);
      localStorage.setItem('quern.language', lng);
    },
    [theme === 'dark' ? '1' : '0', language] as const,
  );
  // As the app stores a choice: the cookie lets the server send the page in that language.
  const baseURL = process.env.QUERN_E2E_BASE_URL;
  if (baseURL) await page.context().addCookies([{ name: 'quern.language', value: language, url: baseURL }]);
}

/** Registers a fresh user and signs the page's browser context in. */
export async function signIn(page: Page): Promise<void> {
  const user = uniqueUser();
  await registerByApi(page.request, user);
  await loginByApi(page.request, user);
}

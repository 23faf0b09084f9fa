/**
 * Test-only helpers for the public pages: an i18next instance with the real translation files
 * (both languages, no fallback, so a missing Spanish string shows up as its key) and a render
 * function for jsdom built on react-dom and act.
 */
import i18next, { type i18n, type Resource } from 'i18next';
import { act, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { AuthProvider } from '../src/features/auth/AuthProvider.js';
import type { AuthState } from '../src/features/auth/authState.js';

export type TestLanguage = 'en' | 'es';

const localeFiles = import.meta.glob<Record<string, unknown>>('../../core/src/i18n/locales/*/*.json', {
  eager: true,
  import: 'default',
});

function loadResources(): Resource {
  const resources: Resource = {};
  for (const [path, content] of Object.entries(localeFiles)) {
    const match = /locales\/(\w+)\/(\w+)\.json$/.exec(path);
    if (!match?.[1] || !match[2]) continue;
    resources[match[1]] = { ...resources[match[1]], [match[2]]: content };
  }
  return resources;
}

export async function createTestI18n(language: TestLanguage): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    fallbackLng: false,
    resources: loadResources(),
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

export const visitor: AuthState = { loading: false, isAuthenticated: false, id: null, email: null };

export interface RenderOptions {
  language?: TestLanguage;
  auth?: AuthState;
  path?: string;
}

export interface Rendered {
  container: HTMLElement;
  unmount(): void;
}

// Tells React that this environment wraps updates in act(), so it flushes effects there.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export async function render(ui: ReactNode, { language = 'en', auth = visitor, path = '/' }: RenderOptions = {}): Promise<Rendered> {
  const i18nInstance = await createTestI18n(language);
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  await act(async () => {
    root.render(
      <I18nextProvider i18n={i18nInstance}>
        <AuthProvider initialState={auth}>
          <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
        </AuthProvider>
      </I18nextProvider>,
    );
  });
  return {
    container,
    unmount() {
      act(() => root.unmount());
      container.remove();
    },
  };
}

/** The text of every heading in document order, as "h2 Our Mission". */
export const headingOutline = (container: HTMLElement): string[] =>
  Array.from(container.querySelectorAll('h1, h2, h3, h4, h5, h6'), (h) => `${h.tagName.toLowerCase()} ${h.textContent?.trim() ?? ''}`);

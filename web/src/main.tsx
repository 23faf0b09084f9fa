/**
 * Entry point. A prerendered page (ADR 023) is hydrated in the language the server chose for it;
 * any other page (the shell of a signed-in route) is rendered from scratch. The dark-mode class
 * was applied by index.html's inline script before the first paint.
 */
import { StrictMode, Suspense } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import i18next from 'i18next';
import { App } from './app/App.js';
import { startI18n } from './i18n/i18n.js';
import { readStoredLanguageChoice, servedLanguage } from './i18n/language.js';
import { recordTypingBeforeHydration } from './app/typedBeforeHydration.js';
import './styles/base.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

const prerendered = rootElement.hasChildNodes();
const choice = readStoredLanguageChoice();
// Hydration must start in the page's own language; a shell page starts in the stored choice.
const language = (prerendered ? servedLanguage() : choice) ?? servedLanguage() ?? 'en';
/** The strings a prerendered page carries (scripts/prerender.mjs), when they are for this language. */
function bundledTranslations(): Record<string, Record<string, unknown>> | undefined {
  const element = document.getElementById('quern-translations');
  if (!prerendered || !element?.textContent || language !== servedLanguage()) return undefined;
  try {
    return JSON.parse(element.textContent) as Record<string, Record<string, unknown>>;
  } catch {
    return undefined;
  }
}
const i18nReady = startI18n(language, bundledTranslations());

const app = (
  <StrictMode>
    {/* Until the shell's strings load, a fresh render stays blank rather than flashing
        translation keys; a prerendered page keeps its server HTML meanwhile. */}
    <Suspense fallback={null}>
      <App />
    </Suspense>
  </StrictMode>
);

if (prerendered) {
  recordTypingBeforeHydration(rootElement);
  hydrateRoot(rootElement, app, {
    // A mismatch makes React render the page again on the client: visible, so it is reported.
    onRecoverableError: (error) => console.error('[quern] hydration', error),
  });
  // A choice stored before the server could see it (no cookie yet) wins once the page is live.
  if (choice && choice !== language) void i18nReady.then(() => i18next.changeLanguage(choice));
} else {
  createRoot(rootElement).render(app);
}

/** Entry point: preferences first (theme, language), then the app. */
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { startI18n } from './i18n/i18n.js';
import { applyDarkMode, readStoredDarkMode } from './theme/darkMode.js';
import './styles/base.css';

applyDarkMode(readStoredDarkMode());
void startI18n();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');

createRoot(rootElement).render(
  <StrictMode>
    {/* The shell's strings load before its first render; until then the page stays blank rather
        than flashing translation keys. */}
    <Suspense fallback={null}>
      <App />
    </Suspense>
  </StrictMode>,
);

/**
 * The prerenderer's server bundle (ADR 023): renders one route in one language to HTML with the
 * same tree the browser hydrates (main.tsx), for a visitor whose session check has not answered.
 * Built by `vite build --ssr` and run by scripts/prerender.mjs at build time, never by the api.
 */
import { StrictMode, Suspense } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter, type RouteObject } from 'react-router';
import { AppRoutes } from '../app/App.js';
import { appRoutes } from '../app/routes.js';
import { AuthProvider } from '../features/auth/AuthProvider.js';
import { COMPANY_NAME_TOKEN, CompanyNameContext } from '../features/shell/companyName.js';
import { QuernModeContext } from '../features/shell/quernMode.js';
import { createI18n } from '../i18n/i18n.js';
import { defaultLanguage, languages, type Language } from '../i18n/languages.js';
import { DocumentTitleSink } from '../ui/useDocumentTitle.js';

export { defaultLanguage, languages };

export interface RenderedPage {
  /** The markup that goes inside #root. */
  html: string;
  /** The title the page sets, when it sets one. */
  title?: string;
  /** The page's <meta name="description">, in its language. */
  description: string;
  /** The translations the page used (namespace -> strings), shipped in the page so it hydrates at once. */
  translations: Record<string, unknown>;
}

export async function renderPage(url: string, language: Language): Promise<RenderedPage> {
  const i18n = await createI18n(language);
  let title: string | undefined;
  const renderErrors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <Suspense fallback={null}>
        <I18nextProvider i18n={i18n}>
          <DocumentTitleSink.Provider
            value={(pageTitle) => {
              title = pageTitle;
            }}
          >
            {/* The server puts the configured COMPANY_NAME in the token's place (ADR 041). */}
            <CompanyNameContext.Provider value={COMPANY_NAME_TOKEN}>
              {/* The sandbox's page; a live server removes the banner as it serves it (ADR 050). */}
              <QuernModeContext.Provider value="sandbox">
                <AuthProvider>
                  <StaticRouter location={url}>
                    <AppRoutes />
                  </StaticRouter>
                </AuthProvider>
              </QuernModeContext.Provider>
            </CompanyNameContext.Provider>
          </DocumentTitleSink.Provider>
        </I18nextProvider>
      </Suspense>
    </StrictMode>,
    {
      // Every boundary inline, in document order: React would otherwise move large ones behind
      // inline reveal scripts ($RC), which the CSP refuses and which only help streaming.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        renderErrors.push(error);
      },
    },
  );
  // A page that failed to render on the build machine would ship as a client-rendered fallback.
  if (renderErrors.length > 0)
    throw new AggregateError(renderErrors, `prerender of ${url} (${language}) failed: ${String(renderErrors[0])}`);
  let html = '';
  for await (const chunk of prelude) html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return { html, title, description: i18n.t('common:metaDescription'), translations: { ...(i18n.store.data[language] ?? {}) } };
}

/** Every route pattern of the app, as full paths ('/', '/millix/send', '/x/:id'), for the server's 404s. */
export function routePatterns(routes: RouteObject[] = appRoutes, parent = ''): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? parent || '/' : route.path === undefined ? undefined : joinPath(parent, route.path);
    const nested = route.children ? routePatterns(route.children, own ?? parent) : [];
    return own === undefined || own.endsWith('*') ? nested : [own, ...nested];
  });
}

const joinPath = (parent: string, path: string) => (path.startsWith('/') ? path : `${parent.replace(/\/$/, '')}/${path}`);

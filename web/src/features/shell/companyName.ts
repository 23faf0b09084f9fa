/**
 * The operator's company (COMPANY_NAME), read at run time (ADR 041): the server writes it into
 * every page it serves as <meta name="quern-company">, so a running Quern shows the configured
 * name with no rebuild. The prerenderer renders COMPANY_NAME_TOKEN instead, which the server
 * replaces with the same name (HTML-escaped) in the page's markup: the prerendered text and the
 * hydrating client then agree, and no default flashes first.
 */
import { createContext, useContext } from 'react';

/**
 * Written by the prerenderer in the company's place; api/src/http/web/company-name.ts replaces it
 * and holds the same string (letters, digits and hyphens: nothing React or i18next escapes).
 */
export const COMPANY_NAME_TOKEN = 'QUERN-COMPANY-NAME-7c41e9d2';
/** The name when the page carries none (a page not served by Quern's server, e.g. vite dev). */
export const DEFAULT_COMPANY_NAME = 'Quern';

/** The name the server wrote into the page, else the default. */
export function companyNameOfPage(doc: Document | undefined = globalThis.document): string {
  const content = doc?.querySelector('meta[name="quern-company"]')?.getAttribute('content');
  return content || DEFAULT_COMPANY_NAME;
}

/** The prerenderer provides the token; the browser reads the page's meta tag. */
export const CompanyNameContext = createContext<string | null>(null);

export function useCompanyName(): string {
  return useContext(CompanyNameContext) ?? companyNameOfPage();
}

/**
 * The mode this Quern runs in (QUERN_MODE), read at run time as COMPANY_NAME is (ADR 041, ADR
 * 050): the server writes it into every page it serves as <meta name="quern-mode">, so switching
 * a Quern between sandbox and live takes a restart, not a rebuild. The prerenderer renders the
 * sandbox's page (the banner included); a live server removes the banner from the page's markup
 * (api/src/http/web/quern-mode.ts) and the browser, reading 'live', renders none either, so the
 * hydrating app always agrees with the HTML it arrived with.
 */
import { type QuernMode, SANDBOX_BANNER_ATTRIBUTE } from '@quern/core/shared';
import { createContext, useContext } from 'react';

export { type QuernMode, SANDBOX_BANNER_ATTRIBUTE };

/** The mode the server wrote into the page; sandbox when the page carries none (vite dev, the default mode). */
export function quernModeOfPage(doc: Document | undefined = globalThis.document): QuernMode {
  return doc?.querySelector('meta[name="quern-mode"]')?.getAttribute('content') === 'live' ? 'live' : 'sandbox';
}

/** The prerenderer renders the sandbox's page; the browser reads the page's meta tag. */
export const QuernModeContext = createContext<QuernMode | null>(null);

export function useQuernMode(): QuernMode {
  return useContext(QuernModeContext) ?? quernModeOfPage();
}

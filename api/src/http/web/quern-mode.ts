/**
 * QUERN_MODE in the served pages, at run time (ADR 050), the way COMPANY_NAME is (ADR 041):
 * every page gets <meta name="quern-mode" content="sandbox|live"> at the top of <head>, which
 * the browser app reads (web/src/features/shell/quernMode.ts). The prerendered pages are the
 * sandbox's, banner included; a live Quern's copies have the banner removed, so a live page
 * carries no trace of it and the hydrating app (reading 'live', rendering none) agrees.
 */
import { type QuernMode, SANDBOX_BANNER_ATTRIBUTE } from '@quern/core';

/**
 * The banner as React renders it: one div, marked, holding text only (SandboxBanner.tsx keeps
 * it so). Nothing else in a page can match: the marker is Quern's own attribute.
 */
const BANNER_ELEMENT = new RegExp(`<div\\b[^>]*\\s${SANDBOX_BANNER_ATTRIBUTE}(?:="")?[\\s>][^<]*</div>`, 'g');

/** The page with the mode's meta tag and, live, without the sandbox banner. */
export function withQuernMode(html: string, mode: QuernMode): string {
  const marked = html.replace(/<head>/i, (head) => `${head}\n    <meta name="quern-mode" content="${mode}" />`);
  if (mode === 'sandbox') return marked;
  const live = marked.replace(BANNER_ELEMENT, '');
  // A build whose banner changed shape would otherwise show "Sandbox" on a live Quern: refuse it.
  if (live.includes(SANDBOX_BANNER_ATTRIBUTE))
    throw new Error(
      `A sandbox banner in the web build could not be removed for live mode: rebuild the web app (${SANDBOX_BANNER_ATTRIBUTE})`,
    );
  return live;
}

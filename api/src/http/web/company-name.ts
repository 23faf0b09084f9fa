/**
 * COMPANY_NAME in the served pages, at run time (ADR 041). The prerenderer writes
 * COMPANY_NAME_TOKEN where the company goes (web/src/features/shell/companyName.ts holds the same
 * string); here every page gets the configured name in its place, HTML-escaped, and a
 * <meta name="quern-company"> the browser app reads, so the hydrating app renders the same text.
 */
export const COMPANY_NAME_TOKEN = 'QUERN-COMPANY-NAME-7c41e9d2';

/** COMPANY_NAME's default, as in api/src/config.ts. */
export const DEFAULT_COMPANY_NAME = 'Quern';

export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The page with the company's name in the token's place and in a meta tag at the top of <head>. */
export function withCompanyName(html: string, companyName: string): string {
  const escaped = escapeHtml(companyName);
  return html
    .replaceAll(COMPANY_NAME_TOKEN, escaped)
    .replace(/<head>/i, (head) => `${head}\n    <meta name="quern-company" content="${escaped}" />`);
}

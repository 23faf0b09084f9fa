// Proves the footer's copyright line names the company the server configured (COMPANY_NAME, read
// from the page's meta tag at run time), the default without one, and the prerenderer's token
// when rendered for the build; and that a page the server filled hydrates without a mismatch.
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n, render, type Rendered } from '../../../test/renderForTest.js';
import { COMPANY_NAME_TOKEN, CompanyNameContext } from './companyName.js';
import { Footer } from './Footer.js';

const year = new Date().getFullYear();
const copyrightOf = (container: HTMLElement) => container.querySelector('.copyright')?.textContent;

function setCompanyMeta(content: string): void {
  const meta = document.createElement('meta');
  meta.name = 'quern-company';
  meta.content = content;
  document.head.append(meta);
}

let page: Rendered | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
  for (const meta of document.head.querySelectorAll('meta[name="quern-company"]')) meta.remove();
});

describe('Footer', () => {
  it('given the server named the company in the page, then the copyright line shows it as text', async () => {
    setCompanyMeta('Acme Ltd <&>');
    page = await render(<Footer />);
    expect(copyrightOf(page.container)).toBe(`© ${year} Acme Ltd <&>`);
    expect(page.container.querySelector('.copyright')?.children).toHaveLength(0);
  });

  it('given a page without the meta tag (vite dev), then the default, Quern', async () => {
    page = await render(<Footer />);
    expect(copyrightOf(page.container)).toBe(`© ${year} Quern`);
  });

  it('given the prerenderer, then the token the server replaces, not a name', async () => {
    setCompanyMeta('Acme Ltd <&>');
    page = await render(
      <CompanyNameContext.Provider value={COMPANY_NAME_TOKEN}>
        <Footer />
      </CompanyNameContext.Provider>,
    );
    expect(copyrightOf(page.container)).toBe(`© ${year} ${COMPANY_NAME_TOKEN}`);
  });

  it('given prerendered markup with the name filled in, when the app hydrates it, then no mismatch is reported', async () => {
    const i18n = await createTestI18n('es');
    const tree = (
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <Footer />
        </MemoryRouter>
      </I18nextProvider>
    );
    const prerendered = renderToString(<CompanyNameContext.Provider value={COMPANY_NAME_TOKEN}>{tree}</CompanyNameContext.Provider>);
    // What the server sends (api/src/http/web/company-name.ts): the token replaced, escaped.
    const container = document.createElement('div');
    container.innerHTML = prerendered.replaceAll(COMPANY_NAME_TOKEN, 'Acme Ltd &lt;&amp;&gt;');
    document.body.append(container);
    setCompanyMeta('Acme Ltd <&>');
    const recoverable = vi.fn();
    const root = await act(async () => hydrateRoot(container, tree, { onRecoverableError: recoverable }));
    expect(recoverable).not.toHaveBeenCalled();
    expect(copyrightOf(container)).toBe(`© ${year} Acme Ltd <&>`);
    act(() => root.unmount());
    container.remove();
  });
});

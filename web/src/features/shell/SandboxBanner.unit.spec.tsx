// Proves the sandbox banner (ADR 050): shown with its text in English and Spanish, as a note, when
// the page says sandbox or says nothing (vite dev); absent when the page says live; the prerenderer
// always renders it; and prerendered markup hydrates without a mismatch both ways: kept for a
// sandbox, and with the banner removed as a live server removes it (api/src/http/web/quern-mode.ts).
import { act } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n, render, type Rendered } from '../../../test/renderForTest.js';
import { QuernModeContext } from './quernMode.js';
import { SandboxBanner } from './SandboxBanner.js';

const bannerOf = (container: HTMLElement) => container.querySelector('[data-quern-sandbox-banner]');

function setModeMeta(content: string): void {
  const meta = document.createElement('meta');
  meta.name = 'quern-mode';
  meta.content = content;
  document.head.append(meta);
}

let page: Rendered | undefined;
afterEach(() => {
  page?.unmount();
  page = undefined;
  for (const meta of document.head.querySelectorAll('meta[name="quern-mode"]')) meta.remove();
});

describe('SandboxBanner', () => {
  it('given a sandbox, then a note says test money only, in English and in Spanish', async () => {
    setModeMeta('sandbox');
    page = await render(<SandboxBanner />);
    expect(bannerOf(page.container)?.textContent).toBe('Sandbox: test money only');
    expect(bannerOf(page.container)?.getAttribute('role')).toBe('note');
    // One element holding text only: what a live server knows how to remove.
    expect(bannerOf(page.container)?.children).toHaveLength(0);
    page.unmount();
    page = await render(<SandboxBanner />, { language: 'es' });
    expect(bannerOf(page.container)?.textContent).toBe('Sandbox: solo dinero de prueba');
  });

  it('given a page without the meta tag (vite dev, the default mode), then the banner', async () => {
    page = await render(<SandboxBanner />);
    expect(bannerOf(page.container)).not.toBeNull();
  });

  it('given live, then nothing at all', async () => {
    setModeMeta('live');
    page = await render(<SandboxBanner />);
    expect(page.container.innerHTML).toBe('');
  });

  it('given the prerenderer, then the banner whatever the page says', async () => {
    setModeMeta('live');
    page = await render(
      <QuernModeContext.Provider value="sandbox">
        <SandboxBanner />
      </QuernModeContext.Provider>,
    );
    expect(bannerOf(page.container)).not.toBeNull();
  });

  for (const mode of ['sandbox', 'live'] as const) {
    it(`given prerendered markup as a ${mode} server sends it, when the app hydrates it, then no mismatch is reported`, async () => {
      const i18n = await createTestI18n('en');
      const tree = (
        <I18nextProvider i18n={i18n}>
          <p>before</p>
          <SandboxBanner />
          <p>after</p>
        </I18nextProvider>
      );
      const prerendered = renderToString(<QuernModeContext.Provider value="sandbox">{tree}</QuernModeContext.Provider>);
      const container = document.createElement('div');
      // As api/src/http/web/quern-mode.ts does for live: the marked, text-only element removed.
      container.innerHTML =
        mode === 'live' ? prerendered.replace(/<div\b[^>]*\sdata-quern-sandbox-banner(?:="")?[\s>][^<]*<\/div>/, '') : prerendered;
      expect(bannerOf(container) === null).toBe(mode === 'live');
      document.body.append(container);
      setModeMeta(mode);
      const recoverable = vi.fn();
      const root = await act(async () => hydrateRoot(container, tree, { onRecoverableError: recoverable }));
      expect(recoverable).not.toHaveBeenCalled();
      expect(bannerOf(container) === null).toBe(mode === 'live');
      act(() => root.unmount());
      container.remove();
    });
  }
});

// Proves the embeddable button: one real button named "Quern", on a transparent page while it is
// mounted, with the page's own background restored afterwards.
import { afterEach, describe, expect, it } from 'vitest';
import CheckoutButtonPage from './CheckoutButtonPage.js';
import { render, type TestLanguage } from './renderForTest.js';

afterEach(() => {
  document.body.style.background = '';
  document.documentElement.style.background = '';
});

describe('checkout button page', () => {
  it.each<TestLanguage>(['en', 'es'])('given %s, when rendered, then it shows one button labelled Quern', async (language) => {
    const page = await render(<CheckoutButtonPage />, { language });

    const buttons = page.container.querySelectorAll('button');
    expect(buttons).toHaveLength(1);
    expect(buttons[0]?.textContent).toBe('Quern');
    expect(buttons[0]?.getAttribute('type')).toBe('button');
    expect(page.container.querySelector('main')).not.toBeNull();
    page.unmount();
  });

  it('given a page with its own background, when the button mounts and unmounts, then the body is transparent only meanwhile', async () => {
    document.body.style.background = 'rgb(1, 2, 3)';

    const page = await render(<CheckoutButtonPage />);
    expect(document.body.style.background).toBe('transparent');
    expect(document.documentElement.style.background).toBe('transparent');

    page.unmount();
    expect(document.body.style.background).toBe('rgb(1, 2, 3)');
    expect(document.documentElement.style.background).toBe('');
  });
});

// Proves the embeddable button: one real button named "Quern", on a transparent page while it is
// mounted, with the page's own background restored afterwards.
import { afterEach, describe, expect, it } from 'vitest';
import CheckoutButtonPage from './CheckoutButtonPage.js';
import { render, type TestLanguage } from '../../../test/renderForTest.js';

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

describe('checkout button click', () => {
  it('given the button in a frame, when clicked, then the parent gets the spec click message', async () => {
    const posted: Array<{ message: unknown; targetOrigin: string }> = [];
    const parent = { postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }) };
    const realParent = Object.getOwnPropertyDescriptor(window, 'parent');
    Object.defineProperty(window, 'parent', { configurable: true, value: parent });
    try {
      const before = Date.now();
      const page = await render(<CheckoutButtonPage />);
      page.container.querySelector('button')?.click();
      expect(posted).toEqual([
        {
          message: {
            origin: window.location.origin,
            url: window.location.href,
            target: 'checkout_button',
            event: 'click',
            timestamp: expect.any(Number),
          },
          targetOrigin: '*',
        },
      ]);
      expect((posted[0] as { message: { timestamp: number } }).message.timestamp).toBeGreaterThanOrEqual(before);
      page.unmount();
    } finally {
      if (realParent) Object.defineProperty(window, 'parent', realParent);
    }
  });

  it('given the button not framed, when clicked, then nothing is posted anywhere', async () => {
    const posted: unknown[] = [];
    const onMessage = (event: MessageEvent) => posted.push(event.data);
    window.addEventListener('message', onMessage);
    const page = await render(<CheckoutButtonPage />);
    page.container.querySelector('button')?.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
    window.removeEventListener('message', onMessage);
    expect(posted).toEqual([]);
    page.unmount();
  });
});

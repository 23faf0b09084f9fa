// Proves the developers page: its sections in order in English and Spanish, the button snippet
// loading /sdk/checkout.js from the Quern the page is served from, the verification call, and the
// links to API Direct and the plugin guide.
import { afterEach, describe, expect, it } from 'vitest';
import DevelopersPage from './DevelopersPage.js';
import { headingOutline, render, type Rendered } from '../../../test/renderForTest.js';

let page: Rendered | undefined;
afterEach(() => page?.unmount());

describe('developers page', () => {
  it('given English, when rendered, then it shows the integration steps in order', async () => {
    page = await render(<DevelopersPage />);
    expect(headingOutline(page.container)).toEqual([
      'h1 Take payments on your own site',
      'h2 1. Place the button',
      'h2 2. Receive the result',
      'h2 3. Verify the payment on your server',
      'h2 Look up an order',
      'h2 Errors and limits',
      'h2 Your API key',
    ]);
  });

  it('given a browser at this Quern, when rendered, then the snippets name its own origin, the SDK and the verify call', async () => {
    page = await render(<DevelopersPage />);
    const code = [...page.container.querySelectorAll('pre')].map((pre) => pre.textContent ?? '');
    const origin = window.location.origin;
    expect(code[0]).toContain(`<script src="${origin}/sdk/checkout.js"></script>`);
    expect(code[0]).toContain('Quern.button(');
    expect(code[1]).toContain(`curl -X POST ${origin}/api/v1/orders/verify`);
    expect(code[1]).toContain('Authorization: Bearer');
    expect(code[2]).toContain(`${origin}/api/v1/orders/<order>`);
    const links = [...page.container.querySelectorAll('a')].map((a) => a.getAttribute('href'));
    expect(links).toEqual(expect.arrayContaining(['/api-direct', '/wordpress']));
  });

  it('given Spanish, when rendered, then the texts are Spanish', async () => {
    page = await render(<DevelopersPage />, { language: 'es' });
    expect(page.container.querySelector('h1')?.textContent).toBe('Cobre en su propio sitio');
    expect(page.container.textContent).toContain('Ir a API Direct');
  });
});

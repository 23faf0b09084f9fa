// Proves the page's mode: a sandbox page gets the meta tag and keeps its banner; a live page gets
// the meta tag and loses every banner element (and nothing else); a banner it cannot remove whole
// is refused rather than served on a live Quern.
import { describe, expect, it } from 'vitest';
import { withQuernMode } from './quern-mode.js';

const banner = (text = 'Sandbox: solo dinero de prueba') =>
  `<div data-quern-sandbox-banner="" class="sandbox-banner" role="note">${text}</div>`;
const page = `<html><head><title>x</title></head><body><div id="root"><div class="app"><a class="skip-link" href="#main">Skip</a>${banner()}<header><div class="nav">n</div></header></div></div></body></html>`;

describe('withQuernMode', () => {
  it('given a sandbox, then the meta tag says so and the banner stays', () => {
    const html = withQuernMode(page, 'sandbox');
    expect(html).toContain('<head>\n    <meta name="quern-mode" content="sandbox" /><title>');
    expect(html).toContain(banner());
  });

  it('given live, then the meta tag says so and only the banner is gone', () => {
    const html = withQuernMode(page.replace('</header>', `</header>${banner('Sandbox: test money only')}`), 'live');
    expect(html).toContain('<meta name="quern-mode" content="live" />');
    expect(html).not.toContain('data-quern-sandbox-banner');
    expect(html).toBe(
      '<html><head>\n    <meta name="quern-mode" content="live" /><title>x</title></head><body><div id="root"><div class="app"><a class="skip-link" href="#main">Skip</a><header><div class="nav">n</div></header></div></div></body></html>',
    );
  });

  it('given live and a banner holding markup, then it refuses', () => {
    expect(() => withQuernMode(page.replace('Sandbox: solo dinero de prueba', '<b>Sandbox</b>'), 'live')).toThrow(/rebuild the web app/);
  });
});

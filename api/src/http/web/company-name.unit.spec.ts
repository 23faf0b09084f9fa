// Proves the page substitution: every token becomes the escaped name, the meta tag carries it,
// and a page without a token or a <head> is otherwise left as it was.
import { describe, expect, it } from 'vitest';
import { COMPANY_NAME_TOKEN, withCompanyName } from './company-name.js';

describe('withCompanyName', () => {
  it('given a page with the token twice, when filled, then both carry the escaped name and the meta tag the same', () => {
    const page = `<html><head><title>x</title></head><body><p>© 2026 ${COMPANY_NAME_TOKEN}</p><i>${COMPANY_NAME_TOKEN}</i></body></html>`;
    const html = withCompanyName(page, `Acme "Ltd" <&> O'Brien`);
    const escaped = 'Acme &quot;Ltd&quot; &lt;&amp;&gt; O&#39;Brien';
    expect(html).not.toContain(COMPANY_NAME_TOKEN);
    expect(html).toContain(`<p>© 2026 ${escaped}</p><i>${escaped}</i>`);
    expect(html).toContain(`<head>\n    <meta name="quern-company" content="${escaped}" /><title>`);
  });

  it('given a page without token or head, when filled, then it is unchanged', () => {
    const page = '<p>no slot</p>';
    expect(withCompanyName(page, 'Acme')).toBe(page);
  });
});

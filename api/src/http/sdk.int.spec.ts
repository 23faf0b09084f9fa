// Proves /sdk/checkout.js over real HTTP: JavaScript content type, loadable from other origins
// (Cross-Origin-Resource-Policy), cached for an hour and revalidated by ETag (304), and it is the
// SDK file itself (it defines window.Quern).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;

beforeAll(async () => {
  quern = await startTestQuern();
});
afterAll(async () => {
  await quern?.stop();
});

describe('GET /sdk/checkout.js', () => {
  it('answers the script, cacheable, as JavaScript, loadable cross-origin, and 304 when unchanged', async () => {
    const answer = await quern.call('GET', '/sdk/checkout.js');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.body).toContain('window.Quern = {');
    const etag = answer.headers.get('etag') as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    const again = await quern.call('GET', '/sdk/checkout.js', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect((await quern.call('GET', '/sdk/checkout.js', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });
});

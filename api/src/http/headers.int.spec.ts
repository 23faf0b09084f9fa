// Proves the response headers by kind of page over real HTTP: API paths are no-store and vary by
// cookie (even when a handler sets its own Vary), other pages are not, and HSTS and
// upgrade-insecure-requests are sent only when Quern is served over https.
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { httpHeaders } from './headers.js';

let server: Server | undefined;

async function serve(https: boolean): Promise<string> {
  const app = express();
  app.use(httpHeaders({ https }));
  app.get('/api/thing', (_req, res) => {
    res.json({ ok: true });
  });
  // tRPC answers like this: it replaces Vary with its own list.
  app.get('/trpc/thing', (_req, res) => {
    res.setHeader('Vary', 'trpc-accept, accept');
    res.json({ ok: true });
  });
  app.get('/page', (_req, res) => {
    res.send('<!doctype html>');
  });
  server = await new Promise<Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

afterEach(async () => {
  await new Promise((done) => server?.close(done));
  server = undefined;
});

describe('response headers', () => {
  it('given API paths, when answered, then no-store and Vary: Cookie are kept beside a handler’s own Vary', async () => {
    const base = await serve(false);
    for (const path of ['/api/thing', '/trpc/thing', '/api/unknown']) {
      const response = await fetch(base + path);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.headers.get('vary')?.split(/\s*,\s*/)).toContain('Cookie');
    }
    expect((await fetch(`${base}/trpc/thing`)).headers.get('vary')).toMatch(/trpc-accept/);
  });

  it('given a page outside the API, when answered, then it is not marked no-store', async () => {
    const base = await serve(false);
    expect((await fetch(`${base}/page`)).headers.get('cache-control')).toBeNull();
  });

  it('given any response, when answered, then no site may frame it (DENY and frame-ancestors none)', async () => {
    const base = await serve(false);
    for (const path of ['/page', '/api/thing']) {
      const response = await fetch(base + path);
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    }
  });

  it('given plain http, when answered, then there is no HSTS and no upgrade-insecure-requests', async () => {
    const response = await fetch(`${await serve(false)}/page`);
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
  });

  it('given https, when answered, then HSTS and upgrade-insecure-requests are sent', async () => {
    const response = await fetch(`${await serve(true)}/page`);
    expect(response.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(response.headers.get('content-security-policy')).toMatch(/upgrade-insecure-requests/);
  });
});

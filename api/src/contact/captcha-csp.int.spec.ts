// Proves the ALTCHA widget fits the pages' Content-Security-Policy without widening it: over real HTTP the /support page's policy lets workers come from the app's own origin only (no blob:, no data:, no other host, no 'unsafe-eval'), the widget's worker file is served from that origin as JavaScript, and the build the web app imports is the one without Blob workers (the default bundle, which has them, would need worker-src blob:).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpHeaders } from '../http/headers.js';
import { staticWebApp } from '../http/static-web.js';

const WORKER = 'assets/pbkdf2-abc123.js';
let dist: string;
let server: Server;
let base: string;

function put(file: string, content: string): void {
  const path = join(dist, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** The directive that governs workers: worker-src, else child-src, else script-src, else default-src. */
function workerSources(policy: string): string[] {
  const directives = new Map(
    policy
      .split(';')
      .map((entry) => entry.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map((parts) => [parts[0]?.toLowerCase() as string, parts.slice(1)]),
  );
  for (const name of ['worker-src', 'child-src', 'script-src', 'default-src']) {
    const sources = directives.get(name);
    if (sources) return sources;
  }
  return ['*'];
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'quern-contact-csp-'));
  put('index.html', '<!doctype html><div id="root"></div>');
  put(WORKER, 'self.onmessage = () => {};');
  put(
    'prerendered/manifest.json',
    JSON.stringify({
      languages: ['en'],
      defaultLanguage: 'en',
      pages: {},
      shell: 'shell',
      notFound: 'not-found',
      routes: ['/support', '/contact'],
      scriptHashes: [],
    }),
  );
  put('prerendered/en/shell.html', '<!doctype html><html lang="en"><div id="root"></div></html>');
  put('prerendered/en/not-found.html', '<!doctype html><html lang="en"><p>Not found</p></html>');
  const app = express();
  app.use(httpHeaders({ https: false }));
  app.use(staticWebApp(dist));
  server = await new Promise<Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await new Promise((done) => server?.close(done));
  rmSync(dist, { recursive: true, force: true });
});

describe('the captcha under the CSP', () => {
  it("given the /support page, then workers may come from the app's own origin and from nowhere else", async () => {
    for (const path of ['/support', '/contact']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      const policy = response.headers.get('content-security-policy') ?? '';
      const sources = workerSources(policy);
      expect(sources).toContain("'self'");
      for (const widened of ['blob:', 'data:', '*', "'unsafe-eval'", 'https:']) expect(sources).not.toContain(widened);
      expect(policy).not.toMatch(/worker-src[^;]*blob:/);
    }
  });

  it('given the emitted worker file, then it is served from the same origin as JavaScript', async () => {
    const response = await fetch(`${base}/${WORKER}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/javascript/);
  });

  it('given the web app, then it loads the ALTCHA build without Blob workers and registers the worker file', () => {
    const here = dirname(fileURLToPath(import.meta.url));
    const loader = readFileSync(join(here, '../../../web/src/features/contact/loadAltcha.ts'), 'utf8');
    expect(loader).toMatch(/import 'altcha\/external';/);
    expect(loader).toMatch(/from 'altcha\/workers\/pbkdf2\?worker'/);
    expect(loader).not.toMatch(/from 'altcha';|import 'altcha';/);
    const require = createRequire(join(here, '../../../web/package.json'));
    // altcha exports no package.json: its dist folder is found from the external build's own file.
    const packageDir = join(dirname(require.resolve('altcha/external')), '..', '..');
    const external = readFileSync(join(packageDir, 'dist/external/altcha.js'), 'utf8');
    const bundled = readFileSync(join(packageDir, 'dist/main/altcha.js'), 'utf8');
    // The check would be empty if neither build had Blob workers: the default one does.
    expect(bundled).toMatch(/createObjectURL/);
    expect(external).not.toMatch(/createObjectURL|new Blob/);
  });
});

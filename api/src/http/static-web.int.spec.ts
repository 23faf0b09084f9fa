// Proves the web app's serving over real HTTP against a fake dist (real .br and .gz siblings):
// the precompressed sibling is chosen by Accept-Encoding, assets are immutable and a missing one
// is a bare 404, pages come prerendered in the visitor's language (cookie, then Accept-Language,
// then the default) with no-cache, the shell answers client routes and the not-found page 404,
// trailing slashes redirect, the CSP allows the pages' inline scripts by hash, /checkout-buttons
// stays frameable at exactly that path, the checkout popup keeps its cross-origin opener and both it
// and the Buy page may load PayPal's SDK, and every other page refuses framing (DENY, 'none') and
// keeps the locked-down opener policy, and a dist without a manifest answers 503 until a build
// appears, and every page carries the configured company name (COMPANY_NAME) escaped, in its slot
// and in a meta tag, whatever the encoding; and the mode (QUERN_MODE) in a meta tag, a sandbox's
// pages keeping the sandbox banner and a live Quern's pages, over the same build, without it.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpHeaders } from './headers.js';
import { staticWebApp } from './static-web.js';

const HASH = 'sha256-RmFrZUhhc2hGb3JUaGVUZXN0c09mU3RhdGljV2ViQXBwPQ==';
const manifest = {
  // Not the default first: without Accept-Language Express would pick 'es'; the default is 'en'.
  languages: ['es', 'en'],
  defaultLanguage: 'en',
  pages: { '/': 'home', '/faqs': 'faqs' },
  shell: 'shell',
  notFound: 'not-found',
  routes: ['/', '/faqs', '/millix/send', '/millix/buy', '/checkout', '/checkout-buttons', '/users/:id', '/docs/*'],
  scriptHashes: [HASH],
};
const PAGES = ['home', 'faqs', 'shell', 'not-found'];
const ASSET = `console.log('quern');${' '.repeat(2000)}`;

const dirs: string[] = [];
const servers: Server[] = [];

/** Writes a file of dist with its .br and .gz siblings (compress) or alone. */
function put(dist: string, file: string, content: string, compress = true): void {
  const path = join(dist, file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  if (!compress) return;
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content));
}

/** COMPANY_NAME for the served pages: every character HTML must escape. */
const COMPANY = 'Acme Ltd <&>';
/** The token web/src/features/shell/companyName.ts renders in the company's place. */
const TOKEN = 'QUERN-COMPANY-NAME-7c41e9d2';
/** The sandbox banner as React renders it (web/src/features/shell/SandboxBanner.tsx). */
const BANNER = '<div data-quern-sandbox-banner="" class="sandbox-banner" role="note">Sandbox: test money only</div>';
/** A prerendered page as the build writes it: the company's slot holds the token; the banner is there. */
const pageHtml = (language: string, page: string) =>
  `<!doctype html><html lang="${language}"><head><title>${page}</title></head><body><div id="root"><div class="app">${BANNER}<p>${page} ${language}</p><footer>© 2026 ${TOKEN}</footer></div></div></body></html>`;
/** The same page as a sandbox Quern serves it with COMPANY: the mode's meta tag, the name escaped in the slot and in its meta tag. */
const servedHtml = (language: string, page: string) =>
  `<!doctype html><html lang="${language}"><head>\n    <meta name="quern-mode" content="sandbox" />\n    <meta name="quern-company" content="Acme Ltd &lt;&amp;&gt;" /><title>${page}</title></head><body><div id="root"><div class="app">${BANNER}<p>${page} ${language}</p><footer>© 2026 Acme Ltd &lt;&amp;&gt;</footer></div></div></body></html>`;

function putManifest(dist: string, content: object = manifest): void {
  put(dist, 'prerendered/manifest.json', JSON.stringify(content), false);
}

function fakeDist(options: { manifest: boolean }): string {
  const dist = mkdtempSync(join(tmpdir(), 'quern-web-dist-'));
  dirs.push(dist);
  put(dist, 'index.html', '<!doctype html><div id="root"></div>');
  put(dist, 'assets/app-abc123.js', ASSET);
  put(dist, 'favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  for (const language of manifest.languages) {
    for (const page of PAGES) put(dist, `prerendered/${language}/${page}.html`, pageHtml(language, page));
  }
  if (options.manifest) putManifest(dist);
  return dist;
}

/** An app like createApp's: helmet's headers, the web app, then a marker for what falls through. */
async function serve(dist: string): Promise<string> {
  const app = express();
  app.use(httpHeaders({ https: false }));
  app.use(staticWebApp(dist, COMPANY));
  app.use((_req, res) => {
    res.status(418).type('text/plain').send('not the web app');
  });
  const server = await new Promise<Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  servers.push(server);
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent. */
  raw: Buffer;
  /** The body decoded per Content-Encoding. */
  text: string;
}

/** node:http rather than fetch: fetch decompresses and hides Content-Encoding. */
function send(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // The path goes as given: new URL('//faqs/', base) would read 'faqs' as a host.
    const { hostname, port } = new URL(base);
    const outgoing = request({ hostname, port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        try {
          const raw = Buffer.concat(chunks);
          const encoding = raw.length > 0 ? response.headers['content-encoding'] : undefined;
          const decoded = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: response.statusCode ?? 0, headers: response.headers, raw, text: decoded.toString('utf8') });
        } catch (error) {
          reject(error);
        }
      });
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

const varyOf = (answer: Answer) => String(answer.headers.vary ?? '').split(/\s*,\s*/);
const scriptSrcOf = (answer: Answer) =>
  String(answer.headers['content-security-policy'])
    .split(';')
    .find((directive) => directive.trim().startsWith('script-src '));

let base: string;

beforeAll(async () => {
  // The server's copies of the pages (web/web-build.ts) go under os.tmpdir(): here, a folder this
  // spec removes, since a test worker ends without the process's exit event.
  const copies = mkdtempSync(join(tmpdir(), 'quern-page-copies-'));
  dirs.push(copies);
  process.env.TMPDIR = copies;
  base = await serve(fakeDist({ manifest: true }));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('precompressed files', () => {
  it('given br, gzip or neither accepted, when an asset is fetched, then br, gzip or identity is sent and decodes to the file', async () => {
    const br = await send(base, '/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.text).toBe(ASSET);
    expect(br.raw.length).toBeLessThan(ASSET.length);
    const gzip = await send(base, '/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(ASSET);
    const identity = await send(base, '/assets/app-abc123.js', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.raw.toString('utf8')).toBe(ASSET);
    for (const answer of [br, gzip, identity]) {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/javascript/);
      expect(varyOf(answer)).toContain('Accept-Encoding');
    }
  });

  it('given a page, when fetched with br, gzip or neither, then the same HTML arrives in each encoding', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const answer = await send(base, '/faqs', { 'accept-encoding': accept });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.text).toBe(servedHtml('en', 'faqs'));
      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });
});

describe('caching', () => {
  it('given an asset, when fetched, then it is cached for a year as immutable', async () => {
    const answer = await send(base, '/assets/app-abc123.js', { 'accept-encoding': 'br' });
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('given a missing asset, when fetched, then a bare 404 and not a page', async () => {
    const answer = await send(base, '/assets/app-missing.js', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).not.toMatch(/html/);
    expect(answer.headers['cache-control']).toBeUndefined();
    expect(answer.text).not.toMatch(/<html/);
  });

  it('given a public file, when fetched, then it is precompressed and cached for an hour', async () => {
    const answer = await send(base, '/favicon.svg', { 'accept-encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('given pages of each kind, when fetched, then every one is no-cache and varies by encoding, language and cookie', async () => {
    for (const path of ['/', '/faqs', '/millix/send', '/nope']) {
      const answer = await send(base, path, { 'accept-encoding': 'br' });
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(varyOf(answer)).toEqual(['Accept-Encoding', 'Accept-Language', 'Cookie']);
    }
  });

  it('given en and es files of one page with the same size and time, when revalidated in the other language, then the whole page is sent', async () => {
    const dist = fakeDist({ manifest: true });
    const sameTime = new Date('2024-01-01T00:00:00Z');
    for (const language of ['en', 'es']) utimesSync(join(dist, `prerendered/${language}/shell.html`), sameTime, sameTime);
    const local = await serve(dist);
    const english = await send(local, '/millix/send', { cookie: 'quern.language=en' });
    const spanish = await send(local, '/millix/send', { cookie: 'quern.language=es', 'if-none-match': String(english.headers.etag) });
    expect(spanish.status).toBe(200);
    expect(spanish.text).toBe(servedHtml('es', 'shell'));
    const again = await send(local, '/millix/send', { cookie: 'quern.language=en', 'if-none-match': String(english.headers.etag) });
    expect(again.status).toBe(304);
  });
});

describe('page language', () => {
  const languageOf = async (headers: Record<string, string>) => {
    const answer = await send(base, '/faqs', headers);
    expect(answer.text).toBe(servedHtml(String(answer.headers['content-language']), 'faqs'));
    return answer.headers['content-language'];
  };

  it('given the language cookie, when it names a built language, then it beats Accept-Language', async () => {
    expect(await languageOf({ cookie: 'session=x; quern.language=es', 'accept-language': 'en' })).toBe('es');
    expect(await languageOf({ cookie: 'quern.language=en', 'accept-language': 'es' })).toBe('en');
  });

  it('given Accept-Language, when there is no usable cookie, then the best built language, else the default', async () => {
    expect(await languageOf({ 'accept-language': 'es-ES,es;q=0.9' })).toBe('es');
    expect(await languageOf({ 'accept-language': 'fr' })).toBe('en');
    expect(await languageOf({ 'accept-language': 'fr, es;q=0.5' })).toBe('es');
    expect(await languageOf({ cookie: 'quern.language=xx', 'accept-language': 'es' })).toBe('es');
    expect(await languageOf({ cookie: 'quern.language=../en' })).toBe('en');
  });

  it('given no Accept-Language, when a page is fetched, then the default language, not the first listed', async () => {
    expect(await languageOf({})).toBe('en');
  });
});

describe('which page', () => {
  it('given a path with a page, when fetched, then that page', async () => {
    expect((await send(base, '/faqs', { cookie: 'quern.language=es' })).text).toBe(servedHtml('es', 'faqs'));
    expect((await send(base, '/')).text).toBe(servedHtml('en', 'home'));
  });

  it('given a client route without a page, when fetched, then the shell with 200', async () => {
    for (const path of ['/millix/send', '/users/42', '/docs/a/b', '/MILLIX/send']) {
      const answer = await send(base, path, { 'accept-encoding': 'gzip' });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(servedHtml('en', 'shell'));
    }
  });

  it('given a path that is neither, when fetched in any encoding, then the not-found page with 404', async () => {
    for (const accept of ['br', 'gzip', '']) {
      const answer = await send(base, '/nope', { 'accept-encoding': accept, cookie: 'quern.language=es' });
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(servedHtml('es', 'not-found'));
    }
    expect((await send(base, '/users')).status).toBe(404);
    expect((await send(base, '/users/1/2')).status).toBe(404);
    expect((await send(base, '/nope', {}, 'HEAD')).status).toBe(404);
  });

  it('given a HEAD request, when a page is asked for, then its headers without a body', async () => {
    const answer = await send(base, '/faqs', { 'accept-encoding': 'br' }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.raw.length).toBe(0);
  });

  it('given HTML files and the manifest by their file names, when fetched, then they are not served as files', async () => {
    for (const path of ['/index.html', '/prerendered/en/faqs.html', '/prerendered/manifest.json']) {
      const answer = await send(base, path);
      expect(answer.status).toBe(404);
      expect(answer.text).toBe(servedHtml('en', 'not-found'));
    }
  });

  it('given trailing slashes on a page or route, when fetched, then a 301 to the path without them, query kept', async () => {
    const faqs = await send(base, '/faqs/');
    expect(faqs.status).toBe(301);
    expect(faqs.headers.location).toBe('/faqs');
    expect((await send(base, '/millix/send//?to=bob')).headers.location).toBe('/millix/send?to=bob');
  });

  it('given trailing slashes on an unknown path or one that would leave the site, when fetched, then no redirect', async () => {
    expect((await send(base, '/nope/')).status).toBe(404);
    // A splat route makes every path a route, so only the guard stops '//host' as a Location.
    const dist = fakeDist({ manifest: false });
    putManifest(dist, { ...manifest, routes: ['/*'] });
    const local = await serve(dist);
    for (const path of ['//evil.example/', '/\\evil.example/']) {
      const offSite = await send(local, path);
      expect(offSite.status).toBe(200);
      expect(offSite.headers.location).toBeUndefined();
    }
    expect((await send(local, '/anything/')).headers.location).toBe('/anything');
  });

  it('given API and health paths, when fetched, then the web app leaves them to the next handler', async () => {
    for (const path of ['/api/whatever', '/api', '/trpc/wallet.balance', '/healthz']) {
      const answer = await send(base, path);
      expect(answer.status).toBe(418);
    }
  });
});

describe('content security policy', () => {
  it('given a page, when answered, then script-src keeps self and adds the inline scripts’ hashes', async () => {
    for (const path of ['/faqs', '/millix/send', '/nope']) {
      const answer = await send(base, path);
      expect(scriptSrcOf(answer)?.split(/\s+/)).toEqual(expect.arrayContaining(["'self'", `'${HASH}'`]));
      expect(answer.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(answer.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('given /checkout-buttons, when answered, then any origin may frame it', async () => {
    const answer = await send(base, '/checkout-buttons');
    expect(answer.status).toBe(200);
    expect(answer.headers['x-frame-options']).toBeUndefined();
    expect(answer.headers['content-security-policy']).toMatch(/frame-ancestors \*/);
    expect(scriptSrcOf(answer)).toContain(`'${HASH}'`);
  });

  const directiveOf = (answer: Answer, name: string) =>
    String(answer.headers['content-security-policy'])
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .find(([directive]) => directive === name)
      ?.slice(1);
  const payPalSources = ['https://www.paypal.com', 'https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'];

  it('given /millix/buy in any letter case, when answered, then PayPal’s SDK, frames and images are allowed beside self and the popup keeps its opener', async () => {
    for (const path of ['/millix/buy', '/MILLIX/Buy']) {
      const answer = await send(base, path, { 'accept-encoding': 'br' });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(servedHtml('en', 'shell'));
      expect(answer.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(directiveOf(answer, 'script-src')).toEqual(["'self'", `'${HASH}'`, ...payPalSources]);
      for (const directive of ['connect-src', 'frame-src', 'child-src'])
        expect(directiveOf(answer, directive)).toEqual(["'self'", ...payPalSources]);
      expect(directiveOf(answer, 'img-src')).toEqual(["'self'", 'data:', ...payPalSources]);
      // The rest stays locked down: no inline scripts, no framing by others, nothing else loosened.
      expect(directiveOf(answer, 'script-src')).not.toContain("'unsafe-inline'");
      expect(directiveOf(answer, 'default-src')).toEqual(["'self'"]);
      expect(directiveOf(answer, 'frame-ancestors')).toEqual(["'none'"]);
      expect(directiveOf(answer, 'object-src')).toEqual(["'none'"]);
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('given /checkout in any letter case, with its query, when answered, then the shop that opened it keeps its link, PayPal may load, and nobody may frame it', async () => {
    for (const path of ['/checkout?price=1&currency=mlx&to=shop', '/CheckOut']) {
      const answer = await send(base, path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.location, path).toBeUndefined();
      expect(answer.text).toBe(servedHtml('en', 'shell'));
      expect(answer.headers['cross-origin-opener-policy'], path).toBe('unsafe-none');
      expect(directiveOf(answer, 'script-src')).toEqual(["'self'", `'${HASH}'`, ...payPalSources]);
      expect(directiveOf(answer, 'frame-src')).toEqual(["'self'", ...payPalSources]);
      expect(directiveOf(answer, 'frame-ancestors')).toEqual(["'none'"]);
      expect(answer.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('given each kind of page, when answered, then only /checkout-buttons may be framed, only /checkout keeps a cross-origin opener, the rest refuse both', async () => {
    const kinds = [
      { path: '/checkout-buttons', frameAncestors: ['*'], xFrame: undefined, opener: 'same-origin' },
      { path: '/checkout', frameAncestors: ["'none'"], xFrame: 'DENY', opener: 'unsafe-none' },
      { path: '/millix/buy', frameAncestors: ["'none'"], xFrame: 'DENY', opener: 'same-origin-allow-popups' },
      ...['/', '/faqs', '/millix/send', '/checkout-buttonsx', '/checkouts', '/nope'].map((path) => ({
        path,
        frameAncestors: ["'none'"],
        xFrame: 'DENY',
        opener: 'same-origin',
      })),
    ];
    for (const kind of kinds) {
      const answer = await send(base, kind.path);
      expect(answer.headers.location, kind.path).toBeUndefined();
      expect(directiveOf(answer, 'frame-ancestors'), kind.path).toEqual(kind.frameAncestors);
      expect(answer.headers['x-frame-options'], kind.path).toBe(kind.xFrame);
      expect(answer.headers['cross-origin-opener-policy'], kind.path).toBe(kind.opener);
    }
  });

  it('given every other page, when answered, then no PayPal source and the same-origin opener policy', async () => {
    for (const path of ['/', '/faqs', '/millix/send', '/millix/buyer', '/checkout-buttons', '/checkouts', '/nope']) {
      const answer = await send(base, path);
      expect(answer.headers['cross-origin-opener-policy'], path).toBe('same-origin');
      expect(String(answer.headers['content-security-policy']), path).not.toMatch(/paypal|venmo/);
      expect(directiveOf(answer, 'connect-src'), path).toBeUndefined();
      expect(directiveOf(answer, 'frame-src'), path).toBeUndefined();
    }
  });

  it('given an asset, when answered, then its policy is helmet’s own', async () => {
    expect(scriptSrcOf(await send(base, '/assets/app-abc123.js'))).not.toContain(HASH);
  });
});

describe('the company name (COMPANY_NAME at run time)', () => {
  it('given COMPANY_NAME with markup, when a prerendered page and the shell are fetched in each encoding, then the name is there escaped, in the slot and the meta tag, and neither the token nor the raw name is', async () => {
    for (const [path, page] of [
      ['/faqs', 'faqs'],
      ['/millix/send', 'shell'],
      ['/nope', 'not-found'],
    ] as const) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await send(base, path, { 'accept-encoding': encoding });
        expect(answer.headers['content-encoding']).toBe(encoding === 'identity' ? undefined : encoding);
        expect(answer.text).toBe(servedHtml('en', page));
        expect(answer.text).toContain('<meta name="quern-company" content="Acme Ltd &lt;&amp;&gt;" />');
        expect(answer.text).not.toContain(TOKEN);
        expect(answer.text).not.toContain(COMPANY);
      }
    }
  });

  it('given another Quern with its own COMPANY_NAME over the same build, when a page is fetched, then it shows that name, with no rebuild', async () => {
    const dist = fakeDist({ manifest: true });
    const app = express();
    app.use(staticWebApp(dist, 'Zeta "Co"'));
    const server = await new Promise<Server>((done) => {
      const s = app.listen(0, '127.0.0.1', () => done(s));
    });
    servers.push(server);
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('no address');
    const answer = await send(`http://127.0.0.1:${address.port}`, '/faqs', { 'accept-encoding': 'br', cookie: 'quern.language=es' });
    expect(answer.text).toContain('<footer>© 2026 Zeta &quot;Co&quot;</footer>');
    expect(answer.text).toContain('<meta name="quern-company" content="Zeta &quot;Co&quot;" />');
    expect(answer.text).toContain('<p>faqs es</p>');
  });
});

describe('the mode (QUERN_MODE, ADR 050)', () => {
  async function serveInMode(dist: string, mode: 'sandbox' | 'live'): Promise<string> {
    const app = express();
    app.use(staticWebApp(dist, COMPANY, mode));
    const server = await new Promise<Server>((done) => {
      const s = app.listen(0, '127.0.0.1', () => done(s));
    });
    servers.push(server);
    const address = server.address();
    if (!address || typeof address !== 'object') throw new Error('no address');
    return `http://127.0.0.1:${address.port}`;
  }

  it('given a live Quern over the same build, when any page is fetched in any encoding, then it says live and has no banner', async () => {
    const dist = fakeDist({ manifest: true });
    const live = await serveInMode(dist, 'live');
    const sandbox = await serveInMode(dist, 'sandbox');
    for (const path of ['/', '/faqs', '/millix/send', '/nowhere']) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await send(live, path, { 'accept-encoding': encoding });
        expect(answer.text).toContain('<meta name="quern-mode" content="live" />');
        expect(answer.text).not.toContain('data-quern-sandbox-banner');
        expect(answer.text).not.toContain('Sandbox');
        expect(answer.text).toContain('<div class="app"><p>');
        const inSandbox = await send(sandbox, path, { 'accept-encoding': encoding });
        expect(inSandbox.text).toContain('<meta name="quern-mode" content="sandbox" />');
        expect(inSandbox.text).toContain(BANNER);
      }
    }
  });

  it('given a build whose banner a live Quern cannot remove whole, when it loads, then pages answer an error rather than show it', async () => {
    const dist = fakeDist({ manifest: true });
    // A banner holding markup: the remover takes only a text-only element, so it stays: refused.
    put(dist, 'prerendered/en/faqs.html', pageHtml('en', 'faqs').replace('Sandbox: test money only', '<b>Sandbox</b>'));
    putManifest(dist);
    const answer = await send(await serveInMode(dist, 'live'), '/faqs');
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('Sandbox');
  });
});

describe('a dist without a build', () => {
  it('given no manifest, when a page is fetched, then 503 says the web app is not built', async () => {
    const answer = await send(await serve(fakeDist({ manifest: false })), '/faqs');
    expect(answer.status).toBe(503);
    expect(answer.text).toBe('The web app is not built yet: run `npm run build`.');
  });

  it('given a build after start, when the manifest appears, then pages and its new precompressed files are served', async () => {
    const dist = fakeDist({ manifest: false });
    const local = await serve(dist);
    expect((await send(local, '/faqs')).status).toBe(503);
    put(dist, 'assets/app-new456.js', ASSET);
    putManifest(dist);
    const page = await send(local, '/faqs', { 'accept-encoding': 'br' });
    expect(page.status).toBe(200);
    expect(page.text).toBe(servedHtml('en', 'faqs'));
    expect((await send(local, '/assets/app-new456.js', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
  });

  it('given a manifest that breaks the contract, when a page is fetched, then an error and not a guess', async () => {
    const dist = fakeDist({ manifest: false });
    putManifest(dist, { ...manifest, notFound: '../../secret' });
    const local = await serve(dist);
    const answer = await send(local, '/nope');
    expect(answer.status).toBe(500);
  });
});

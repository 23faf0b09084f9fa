#!/usr/bin/env node
/**
 * Prerenders the public pages in every language (ADR 023). Run by scripts/build-web.mjs after the
 * browser build (web/dist) and the server bundle (web/dist-ssr). For each page and language it
 * writes web/dist/prerendered/<language>/<page>.html, with brotli and gzip siblings, holding:
 * the page's markup in #root, its <title>, <html lang>, its chunks' stylesheets (so the first
 * paint is styled and nothing moves when the chunk arrives) and modulepreload links for its chunks
 * and translation files (so hydration waits on no request chain). Also written: a shell page per
 * language for every other route, and prerendered/manifest.json, which the server reads
 * (api/src/http/web): pages, route patterns (anything else is a 404) and the CSP hashes of the
 * inline scripts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'web/dist');
const outDir = join(dist, 'prerendered');

/**
 * The prerendered pages: URL path, file name, and the lazily loaded modules the page renders
 * (manifest keys, relative to web/). The browser test web/e2e/prerender.e2e.ts fails when a page
 * adds a stylesheet after it loaded, i.e. when a module is missing here.
 */
const dataLayout = 'src/app/data/DataLayout.tsx';
const pages = [
  { path: '/', name: 'home', modules: ['src/features/home/HomePage.tsx'] },
  { path: '/login', name: 'login', modules: [dataLayout, 'src/features/identity/LoginPage.tsx'] },
  { path: '/register', name: 'register', modules: [dataLayout, 'src/features/identity/RegisterPage.tsx'] },
  { path: '/password-reset', name: 'password-reset', modules: [dataLayout, 'src/features/identity/PasswordResetPage.tsx'] },
  { path: '/faqs', name: 'faqs', modules: [dataLayout, 'src/features/content/FaqsPage.tsx'] },
  { path: '/about', name: 'about', modules: [dataLayout, 'src/features/content/AboutPage.tsx'] },
  { path: '/terms-of-service', name: 'terms-of-service', modules: [dataLayout, 'src/features/content/TermsOfServicePage.tsx'] },
  { path: '/privacy-policy', name: 'privacy-policy', modules: [dataLayout, 'src/features/content/PrivacyPolicyPage.tsx'] },
  { path: '/wordpress', name: 'wordpress', modules: [dataLayout, 'src/features/content/WordpressPage.tsx'] },
  // The dashboard's first paint: the frame and 'Loading...' until the session check answers; the
  // dashboard's own chunk and styles are fetched alongside.
  { path: '/account', name: 'account', modules: [dataLayout, 'src/features/wallet/AccountPage.tsx'] },
];
/** Rendered at a path no route matches: the 404 page. */
const notFound = { path: '/__quern-not-found__', name: 'not-found', modules: [dataLayout, 'src/features/errors/NotFoundPage.tsx'] };
const shellName = 'shell';

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function readManifest() {
  return JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
}

/** The chunk files and stylesheets of `keys` and of everything they import statically. */
function chunksOf(manifest, keys) {
  const files = new Set();
  const css = new Set();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`prerender: the manifest has no module "${key}"`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const sheet of chunk.css ?? []) css.add(sheet);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return { files, css };
}

/** The inline scripts of the template, as CSP source expressions. */
function inlineScriptHashes(template) {
  return [...template.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
}

function pageHtml(template, manifest, { language, title, description, markup, modules, namespaces }) {
  const entry = chunksOf(manifest, ['index.html']);
  const { files, css } = chunksOf(manifest, modules);
  const translationKeys = namespaces.map((ns) => `../core/src/i18n/locales/${language}/${ns}.json`).filter((key) => manifest[key]);
  const translations = chunksOf(manifest, translationKeys).files;
  const head = [
    ...[...css].filter((sheet) => !entry.css.has(sheet)).map((sheet) => `<link rel="stylesheet" crossorigin href="/${sheet}">`),
    ...[...files, ...translations]
      .filter((file) => !entry.files.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
  ];
  let html = template.replace('<html lang="en">', `<html lang="${language}">`);
  if (title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  html = html.replace(/<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeHtml(description)}" />`);
  html = html.replace('</head>', `    ${head.join('\n    ')}\n  </head>`);
  return html.replace('<div id="root"></div>', `<div id="root">${markup}</div>`);
}

function write(file, html) {
  writeFileSync(file, html);
  writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
}

async function main() {
  const { renderPage, routePatterns, languages, defaultLanguage } = await import(
    pathToFileURL(join(root, 'web/dist-ssr/renderPage.js')).href
  );
  const template = readFileSync(join(dist, 'index.html'), 'utf8');
  const manifest = readManifest();
  rmSync(outDir, { recursive: true, force: true });
  for (const language of languages) {
    mkdirSync(join(outDir, language), { recursive: true });
    for (const page of [...pages, notFound]) {
      const rendered = await renderPage(page.path, language);
      if (!rendered.html) throw new Error(`prerender: ${page.path} (${language}) rendered nothing`);
      const html = pageHtml(template, manifest, {
        language,
        title: rendered.title,
        description: rendered.description,
        markup: rendered.html,
        modules: page.modules,
        namespaces: rendered.namespaces,
      });
      // The CSP allows the template's inline scripts only; React must not have added any.
      if (inlineScriptHashes(html).join() !== inlineScriptHashes(template).join())
        throw new Error(`prerender: ${page.path} (${language}) has inline scripts the CSP would refuse`);
      write(join(outDir, language, `${page.name}.html`), html);
    }
    write(join(outDir, language, `${shellName}.html`), template.replace('<html lang="en">', `<html lang="${language}">`));
  }
  const siteManifest = {
    languages,
    defaultLanguage,
    pages: Object.fromEntries(pages.map((page) => [page.path, page.name])),
    shell: shellName,
    notFound: notFound.name,
    routes: routePatterns(),
    scriptHashes: inlineScriptHashes(template),
  };
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(siteManifest, null, 2)}\n`);
  console.log(`prerendered ${pages.length + 1} pages and a shell in ${languages.join(', ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

#!/usr/bin/env node
/**
 * Prerenders the public pages in every language (ADR 023). Run by scripts/build-web.mjs after the
 * browser build (web/dist) and the server bundle (web/dist-ssr). For each page and language it
 * writes web/dist/prerendered/<language>/<page>.html, with brotli and gzip siblings, holding:
 * the page's markup in #root, its <title>, description and <html lang>, and the app's stylesheet
 * inlined, so the first paint needs nothing but the HTML. The page's scripts are not preloaded:
 * on a phone they would share the bandwidth the first paint needs, and the page is already drawn
 * while they load (measured: Lighthouse mobile 96 with the preloads, 99 without, on /login).
 * Also written: a shell page per language for every other route, and prerendered/manifest.json,
 * which the server reads (api/src/http/web): pages, route patterns (anything else is a 404) and
 * the CSP hashes of the inline scripts.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const dist = join(root, 'web/dist');
const outDir = join(dist, 'prerendered');

/** The prerendered pages: URL path and file name. */
const pages = [
  { path: '/', name: 'home' },
  { path: '/login', name: 'login' },
  { path: '/register', name: 'register' },
  { path: '/password-reset', name: 'password-reset' },
  { path: '/faqs', name: 'faqs' },
  { path: '/about', name: 'about' },
  { path: '/terms-of-service', name: 'terms-of-service' },
  { path: '/privacy-policy', name: 'privacy-policy' },
  { path: '/wordpress', name: 'wordpress' },
  // The dashboard's first paint: the frame and 'Loading...' until the session check answers.
  { path: '/account', name: 'account' },
];
/** Rendered at a path no route matches: the 404 page. */
const notFound = { path: '/__quern-not-found__', name: 'not-found' };
const shellName = 'shell';

const escapeHtml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The inline scripts of the template, as CSP source expressions. */
function inlineScriptHashes(template) {
  return [...template.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
}

function pageHtml(template, { language, title, description, markup, translations }) {
  let html = template.replace('<html lang="en">', `<html lang="${language}">`);
  if (title) html = html.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`);
  html = html.replace(/<meta name="description" content="[^"]*" \/>/, `<meta name="description" content="${escapeHtml(description)}" />`);
  // Data, not code (never executed, so outside the CSP's script rules): the strings the page uses,
  // so the app hydrates without waiting for a translation file. '<' is escaped so the JSON cannot
  // close the element.
  const strings = JSON.stringify(translations).replace(/</g, '\\u003c');
  return inlineStyles(html).replace(
    '<div id="root"></div>',
    `<script type="application/json" id="quern-translations">${strings}</script>\n    <div id="root">${markup}</div>`,
  );
}

/**
 * The app's stylesheet (one file: cssCodeSplit is off in web/vite.config.ts) goes into the page
 * itself: the first paint then waits for no request but the HTML, where a phone would otherwise
 * wait for the stylesheet behind the scripts sharing its bandwidth. No script loads it later.
 */
function inlineStyles(html) {
  return html.replace(/<link rel="stylesheet" crossorigin href="\/(assets\/[\w.-]+\.css)">/g, (_, sheet) => {
    const css = readFileSync(join(dist, sheet), 'utf8').replace(/<\/style/gi, '<\\/style');
    return `<style>${css}</style>`;
  });
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
  rmSync(outDir, { recursive: true, force: true });
  for (const language of languages) {
    mkdirSync(join(outDir, language), { recursive: true });
    for (const page of [...pages, notFound]) {
      const rendered = await renderPage(page.path, language);
      if (!rendered.html) throw new Error(`prerender: ${page.path} (${language}) rendered nothing`);
      const html = pageHtml(template, {
        language,
        title: rendered.title,
        description: rendered.description,
        markup: rendered.html,
        translations: rendered.translations,
      });
      // The CSP allows the template's inline scripts only; React must not have added any.
      if (inlineScriptHashes(html).join() !== inlineScriptHashes(template).join())
        throw new Error(`prerender: ${page.path} (${language}) has inline scripts the CSP would refuse`);
      write(join(outDir, language, `${page.name}.html`), html);
    }
    const shell = inlineStyles(template).replace('<html lang="en">', `<html lang="${language}">`);
    write(join(outDir, language, `${shellName}.html`), shell);
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

/**
 * The web build currently in dist: its prerender manifest and the precompressed-file middlewares.
 * express-static-gzip lists the .br/.gz siblings once, when it is created, so both are taken
 * together and renewed together whenever the manifest changes.
 *
 * Choice (a build after start): the manifest is read once at start-up when present, and each
 * request stats it (one cheap async stat); a different mtime, size or inode, or its appearing or
 * vanishing, reloads the manifest and re-lists the precompressed files. The web build writes the
 * manifest last, so a new manifest means the files it names are in place. A manifest that is not
 * valid is kept as an error until it changes again, and pages answer that error (a broken build
 * is a fault to see, not a page to guess).
 *
 * Choice (COMPANY_NAME at run time, ADR 041): with each manifest, the prerendered pages are copied
 * once into a fresh temporary directory with the configured company name filled in
 * (web/company-name.ts) and their brotli and gzip siblings made again at the build's own levels
 * (measured: about 1.3 s for 24 pages on this machine, once per build), and the pages are served
 * from there as before: the same precompressed bytes per request, ETags and all. The previous
 * copy is removed when a new build replaces it, and the last one when the process exits.
 *
 * Choice (QUERN_MODE at run time, ADR 050): the same copy carries the mode's meta tag, and a
 * live Quern's copy has the sandbox banner removed (web/quern-mode.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, type Stats, statSync, writeFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { QuernMode } from '@quern/core';
import type { RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { withCompanyName } from './company-name.js';
import { withQuernMode } from './quern-mode.js';
import { parseManifest, type PrerenderManifest } from './manifest.js';
import { routeMatcher } from './route-patterns.js';

/** Hashed names change with their content, so browsers may keep them for good. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Other public files (the favicon) keep their names across builds. */
const PUBLIC_FILE_CACHE = 'public, max-age=3600';
/** A page's bytes depend on the encoding, the language asked for and the language cookie. */
const PAGE_VARY = 'Accept-Encoding, Accept-Language, Cookie';

export interface WebBuild {
  /** Null when the web app is not built (no manifest) or the manifest is not valid. */
  manifest: PrerenderManifest | null;
  /** Why an existing manifest cannot be used. */
  manifestError: Error | null;
  /** Whether a path matches one of the manifest's client routes. */
  isRoute: (path: string) => boolean;
  /** dist's files (assets and public files), the precompressed sibling chosen by Accept-Encoding. */
  files: RequestHandler;
  /** dist/prerendered's pages, addressed as /<lang>/<page>.html; the caller sets status and page headers. */
  pages: RequestHandler;
}

type ServeStaticOptions = NonNullable<expressStaticGzip.ExpressStaticGzipOptions['serveStatic']>;

function precompressed(root: string, serveStatic: ServeStaticOptions): RequestHandler {
  return expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gz'],
    index: false,
    // A directory is not a file: fall through (to the pages) rather than redirect to a slash.
    serveStatic: { index: false, redirect: false, cacheControl: false, ...serveStatic },
  });
}

function filesOf(distDir: string): RequestHandler {
  const assetsDir = join(distDir, 'assets') + sep;
  return precompressed(distDir, {
    setHeaders: (res: ServerResponse, path: string) => {
      res.setHeader('Cache-Control', path.startsWith(assetsDir) ? ASSET_CACHE : PUBLIC_FILE_CACHE);
    },
  });
}

function pagesOf(pagesDir: string): RequestHandler {
  return precompressed(pagesDir, {
    // send's own ETag is size and mtime only, and the en and es files of a page can share both
    // while the URL answers either: the file's name goes into the tag so a revalidation cannot
    // confirm the other language. Last-Modified has the same flaw, so it is left out.
    etag: false,
    lastModified: false,
    // A byte range of one language's page is meaningless once the language can change.
    acceptRanges: false,
    setHeaders: (res: ServerResponse, path: string, stats: Stats) => {
      // After express-static-gzip, which sets Vary to Accept-Encoding alone.
      res.setHeader('Vary', PAGE_VARY);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      const name = relative(pagesDir, path).split(sep).join('/');
      res.setHeader('ETag', `W/"${name}-${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`);
    },
  });
}

function stampOf(stats: Stats | undefined): string {
  return stats ? `${stats.mtimeMs}:${stats.size}:${stats.ino}` : 'missing';
}

/** What each served page is given at run time. */
export interface PageSettings {
  /** COMPANY_NAME (ADR 041). */
  companyName: string;
  /** QUERN_MODE (ADR 050). */
  mode: QuernMode;
}

/**
 * A copy of the manifest's pages (<lang>/<page>.html) with the company's name and the mode filled in, each with
 * .br and .gz siblings at scripts/prerender.mjs's levels. A language without a folder is skipped:
 * its pages then answer the missing-page error, as they would from dist.
 */
function pagesWithSettings(pagesDir: string, manifest: PrerenderManifest, settings: PageSettings): string {
  const copyDir = mkdtempSync(join(tmpdir(), 'quern-pages-'));
  try {
    for (const language of manifest.languages) {
      let names: string[];
      try {
        names = readdirSync(join(pagesDir, language)).filter((name) => name.endsWith('.html'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      mkdirSync(join(copyDir, language));
      for (const name of names) {
        const html = withQuernMode(
          withCompanyName(readFileSync(join(pagesDir, language, name), 'utf8'), settings.companyName),
          settings.mode,
        );
        const file = join(copyDir, language, name);
        writeFileSync(file, html);
        writeFileSync(`${file}.br`, brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
      }
    }
  } catch (error) {
    rmSync(copyDir, { recursive: true, force: true });
    throw error;
  }
  return copyDir;
}

type LoadedBuild = WebBuild & { stamp: string; copyDir: string | null };

function load(distDir: string, manifestFile: string, stamp: string, settings: PageSettings): LoadedBuild {
  let manifest: PrerenderManifest | null = null;
  let manifestError: Error | null = null;
  let copyDir: string | null = null;
  if (stamp !== 'missing') {
    try {
      manifest = parseManifest(readFileSync(manifestFile, 'utf8'), manifestFile);
      copyDir = pagesWithSettings(join(distDir, 'prerendered'), manifest, settings);
    } catch (error) {
      // Gone between the stat and the read: not built; the next request's stat sees it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') manifestError = error as Error;
      manifest = null;
    }
  }
  return {
    stamp,
    copyDir,
    manifest,
    manifestError,
    isRoute: routeMatcher(manifest?.routes ?? []),
    files: filesOf(distDir),
    pages: pagesOf(copyDir ?? join(distDir, 'prerendered')),
  };
}

/** The page copies in use, removed when the process exits (one listener for every build). */
const liveCopies = new Set<string>();
process.once('exit', () => {
  for (const copyDir of liveCopies) rmSync(copyDir, { recursive: true, force: true });
});

function keepUntilExit(copyDir: string | null): void {
  if (copyDir) liveCopies.add(copyDir);
}

function removeCopy(copyDir: string | null): void {
  if (!copyDir) return;
  liveCopies.delete(copyDir);
  rmSync(copyDir, { recursive: true, force: true });
}

/**
 * Follows dist's build; `current()` answers the build to serve this request with, its pages
 * naming `settings.companyName` (COMPANY_NAME) and showing `settings.mode` (QUERN_MODE).
 */
export function webBuildOf(distDir: string, settings: PageSettings): { current(): Promise<WebBuild> } {
  const manifestFile = join(distDir, 'prerendered', 'manifest.json');
  let build = load(distDir, manifestFile, stampOf(statSync(manifestFile, { throwIfNoEntry: false })), settings);
  keepUntilExit(build.copyDir);
  return {
    async current() {
      const stamp = stampOf(await stat(manifestFile).catch(() => undefined));
      if (stamp !== build.stamp) {
        const previous = build.copyDir;
        build = load(distDir, manifestFile, stamp, settings);
        keepUntilExit(build.copyDir);
        removeCopy(previous);
      }
      return build;
    },
  };
}

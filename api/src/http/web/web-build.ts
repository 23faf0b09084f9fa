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
 */
import { readFileSync, type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import type { RequestHandler } from 'express';
import expressStaticGzip from 'express-static-gzip';
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

function load(distDir: string, manifestFile: string, stamp: string): WebBuild & { stamp: string } {
  let manifest: PrerenderManifest | null = null;
  let manifestError: Error | null = null;
  if (stamp !== 'missing') {
    try {
      manifest = parseManifest(readFileSync(manifestFile, 'utf8'), manifestFile);
    } catch (error) {
      // Gone between the stat and the read: not built; the next request's stat sees it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') manifestError = error as Error;
    }
  }
  return {
    stamp,
    manifest,
    manifestError,
    isRoute: routeMatcher(manifest?.routes ?? []),
    files: filesOf(distDir),
    pages: pagesOf(join(distDir, 'prerendered')),
  };
}

/** Follows dist's build; `current()` answers the build to serve this request with. */
export function webBuildOf(distDir: string): { current(): Promise<WebBuild> } {
  const manifestFile = join(distDir, 'prerendered', 'manifest.json');
  let build = load(distDir, manifestFile, stampOf(statSync(manifestFile, { throwIfNoEntry: false })));
  return {
    async current() {
      const stamp = stampOf(await stat(manifestFile).catch(() => undefined));
      if (stamp !== build.stamp) build = load(distDir, manifestFile, stamp);
      return build;
    },
  };
}

/**
 * Which prerendered page answers a path: the path's own page, else the shell for a path the
 * client's router knows (it renders the page in the browser), else the not-found page with 404.
 */
import type { PrerenderManifest } from './manifest.js';

export interface PageChoice {
  page: string;
  status: 200 | 404;
}

export function choosePage(manifest: PrerenderManifest, isRoute: (path: string) => boolean, path: string): PageChoice {
  const page = manifest.pages[path];
  if (page !== undefined) return { page, status: 200 };
  if (isRoute(path)) return { page: manifest.shell, status: 200 };
  return { page: manifest.notFound, status: 404 };
}

/**
 * The language of a prerendered page: the one the visitor chose (the web app's `quern.language`
 * cookie) when the build has it, else the best of the build's languages for Accept-Language,
 * else the build's default.
 */
import type { Request } from 'express';
import { readCookie } from '../cookies.js';

export const LANGUAGE_COOKIE = 'quern.language';

export function pageLanguage(req: Request, languages: readonly string[], defaultLanguage: string): string {
  const chosen = readCookie(req.get('cookie'), LANGUAGE_COOKIE);
  if (chosen !== undefined && languages.includes(chosen)) return chosen;
  // Without the header Express answers the first candidate, which need not be the default.
  if (!req.get('accept-language')) return defaultLanguage;
  return req.acceptsLanguages(...languages) || defaultLanguage;
}

/**
 * Refuses an API call whose address has broken percent-encoding (`%ff`, a lone `%`, `%zz`) with
 * 400 before any route reads it. The router would otherwise throw while decoding a path
 * parameter, and the query parser keeps an undecodable value as raw text that a route could take
 * for a real one (an unknown id, a recipient named `%ff`). One check at the edge answers every
 * route, those added later included, the same way.
 */
import type { NextFunction, Request, Response } from 'express';
import { RequestRefused } from './errors.js';

function decodes(component: string): boolean {
  try {
    // Forms encode a space as '+'; decodeURIComponent would keep it, which is harmless here.
    decodeURIComponent(component);
    return true;
  } catch {
    return false;
  }
}

/** True when every path segment and every query name and value percent-decodes. */
export function hasWellFormedEncoding(url: string): boolean {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const query = queryStart === -1 ? '' : url.slice(queryStart + 1);
  if (!path.split('/').every(decodes)) return false;
  return query.split(/[&=]/).every(decodes);
}

export function refuseBrokenUrlEncoding(req: Request, _res: Response, next: NextFunction): void {
  next(hasWellFormedEncoding(req.originalUrl) ? undefined : new RequestRefused(400, 'errors:malformedUrl'));
}

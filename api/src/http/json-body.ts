/**
 * How /api and /trpc read request bodies: UTF-8 JSON only, at most `limit` bytes, nested at
 * most JSON_DEPTH_MAX levels, each checked before anything parses or walks the body. tRPC's GET
 * calls carry their JSON in the `input` query parameter, which gets the same depth check.
 * Refusals are 4xx AppErrors that the error handler answers like any other.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { RequestRefused, requestRefused } from './errors.js';
import { JSON_DEPTH_MAX, jsonNestsDeeperThan } from './json-depth.js';

const tooDeep = () => new RequestRefused(400, 'errors:invalidRequest', { _: 'errors:nestingTooDeep' }, { depthMax: JSON_DEPTH_MAX });

/** A body is there when the client says it sends bytes; an empty POST (logout) needs no type. */
function hasNonEmptyBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/**
 * JSON between systems must be UTF-8 (RFC 8259); refusing other charsets also keeps the byte
 * scan of json-depth.ts exact. A form post or text body on a JSON API is a client bug (or a
 * cross-site form), so it is told so rather than read as an empty input.
 */
function refuseNonJsonBodies(req: Request, _res: Response, next: NextFunction): void {
  if (!hasNonEmptyBody(req)) {
    next();
    return;
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  const utf8 = charset === undefined || charset === 'utf-8' || charset === 'utf8';
  next(req.is('application/json') && utf8 ? undefined : requestRefused(415));
}

/** Where a signed body is checked against its signature byte for byte (PayPal's webhooks). */
const RAW_BODY_PATHS = ['/api/paypal/webhooks'];

/** The body exactly as received, for the routes that verify a signature over it. */
export const rawBodyOf = (req: Request): Buffer | undefined => (req as Request & { rawBody?: Buffer }).rawBody;

/** express.json's verify hook sees the raw bytes after the size limit and before JSON.parse. */
function refuseDeepBody(req: Request, _res: Response, body: Buffer): void {
  if (jsonNestsDeeperThan(body)) throw tooDeep();
  if (RAW_BODY_PATHS.includes(req.originalUrl.split('?')[0] ?? '')) (req as Request & { rawBody?: Buffer }).rawBody = body;
}

/**
 * tRPC reads a GET call's input from the `input` parameter with JSON.parse, and only when the
 * procedure takes input; checking it here refuses deep or broken JSON on every call alike.
 * REST routes have no `input` parameter, so the check costs them nothing.
 */
function refuseBadQueryInput(req: Request, _res: Response, next: NextFunction): void {
  const input: unknown = req.query.input;
  const texts = (Array.isArray(input) ? input : [input]).filter((text): text is string => typeof text === 'string');
  if (texts.some((text) => jsonNestsDeeperThan(text))) {
    next(tooDeep());
    return;
  }
  next(texts.every(parsesAsJson) ? undefined : new RequestRefused(400, 'errors:invalidJson'));
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The body handling of every API call, in order: type, size and depth, then the query's input. */
export function jsonBodies(limit: string): RequestHandler[] {
  return [refuseNonJsonBodies, express.json({ limit, verify: refuseDeepBody }), refuseBadQueryInput];
}

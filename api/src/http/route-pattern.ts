/**
 * What a request was for, in the one vocabulary the access log and the HTTP metrics share: the
 * pattern of the route that answered (`/api/v1/payments/:id`), a tRPC procedure checked against
 * the router's list (`/trpc/wallet.send`), `web` for the web app's pages and files, `unmatched`
 * for anything else. Never the raw URL, whose path segments and query may hold a recipient, a
 * username (`/user/alice`) or a token (ADR 052), and whose values would each be a new time
 * series kept forever (ADR 053).
 */
import type { Request, Response } from 'express';

/** A request no route or page answered: unknown paths, probes, bad methods. */
export const UNMATCHED_ROUTE = 'unmatched';
/** Pages and files of the built web app: paths the client chooses (`/user/:username`), so one label. */
export const WEB_ROUTE = 'web';
/** A /trpc call naming a procedure that does not exist. */
export const UNKNOWN_PROCEDURE_ROUTE = '/trpc/unknown';
/** The status of a request whose client went away before any answer was sent. */
export const ABORTED_STATUS = 0;

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** A procedure's name, when no list of the router's procedures is at hand. */
const PROCEDURE_NAME = /^[A-Za-z0-9.]{1,100}$/;
/** tRPC's maxBatchSize: a longer batch is refused by tRPC anyway. */
const MAX_BATCH = 10;

export interface RouteFacts {
  method: string;
  /** Path without the query. */
  path: string;
  /** The matched route's pattern joined to its router's mount path, when a route answered. */
  routePattern?: string;
  status: number;
}

/** The method label: the usual verbs, anything else as 'OTHER' (a caller can send any token). */
export const methodLabel = (method: string): string => (METHODS.has(method) ? method : 'OTHER');

/** The status sent, or ABORTED_STATUS when the client went away before the headers were. */
export const answeredStatus = (res: Response): number => (res.headersSent ? res.statusCode : ABORTED_STATUS);

/**
 * The tRPC procedures of a /trpc path, each checked against the router's list (or, without one,
 * against the shape of a name); a batch (`/trpc/a.b,c.d`) names several. Unknown names collapse
 * to one label.
 */
export function procedureLabels(path: string, procedures?: ReadonlySet<string>): string[] {
  const names = path.slice('/trpc/'.length);
  if (names === '') return [UNKNOWN_PROCEDURE_ROUTE];
  const known = (name: string) => (procedures ? procedures.has(name) : PROCEDURE_NAME.test(name));
  return names
    .split(',')
    .slice(0, MAX_BATCH)
    .map((name) => (known(name) ? `/trpc/${name}` : UNKNOWN_PROCEDURE_ROUTE));
}

/** The route labels of one request (several for a tRPC batch). */
export function routeLabels(facts: RouteFacts, procedures?: ReadonlySet<string>): string[] {
  if (facts.routePattern !== undefined) return [facts.routePattern];
  if (facts.path.startsWith('/trpc/')) return procedureLabels(facts.path, procedures);
  const isApi = /^\/(?:api|trpc)(?:\/|$)/.test(facts.path);
  if (!isApi && (facts.method === 'GET' || facts.method === 'HEAD') && facts.status !== 404) return [WEB_ROUTE];
  return [UNMATCHED_ROUTE];
}

/** The facts of a request once answered: Express leaves req.route and req.baseUrl set when a route matched. */
export function routeFactsOf(req: Request, status: number): RouteFacts {
  // Mounted middleware (tRPC, the static web app) sets no req.route.
  const pattern: unknown = req.route?.path;
  return {
    method: methodLabel(req.method),
    path: req.originalUrl.split('?')[0] ?? '',
    routePattern: typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : undefined,
    status,
  };
}

/** A log line's route: the request's labels, a tRPC batch's joined by commas. */
export function routeOf(req: Request, status: number, procedures?: ReadonlySet<string>): string {
  return routeLabels(routeFactsOf(req, status), procedures).join(',');
}

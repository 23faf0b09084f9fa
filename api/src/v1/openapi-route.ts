/**
 * `GET /api/v1/openapi.json`: the merchant API's reference, public (no key: it describes the API,
 * it holds nothing of anyone's) and cacheable, unlike every other API answer. The document is
 * built once, on the first request, from the same table the router mounts.
 */
import { type Response, Router } from 'express';
import { allowPublicCaching } from '../http/headers.js';
import type { V1Route } from './route.js';
import { OPENAPI_PATH, type OpenApiOptions, v1OpenApiDocument } from './openapi.js';

/** Five minutes: a deployment's new operations show up soon; ETag revalidation makes it cheap. */
const MAX_AGE_SECONDS = 300;

export function openApiRoute(table: readonly V1Route[], options: OpenApiOptions): Router {
  const routes = Router();
  let document: string | undefined;
  routes.get(OPENAPI_PATH, (_req, res: Response) => {
    document ??= JSON.stringify(v1OpenApiDocument(table, options));
    allowPublicCaching(res, MAX_AGE_SECONDS);
    // Tools (code generators, other viewers) may read it from any origin; it is no one's data.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.type('application/json').send(document);
  });
  return routes;
}

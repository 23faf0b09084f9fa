/**
 * Mounts the merchant API's route table (route.ts) under /api/v1: every operation authenticates
 * its bearer key first (401 or 429 before any input is read), then parses its path parameters,
 * query and body with the declared schemas, and answers through the one error handler; every
 * answer's objects carry `livemode` (livemode.ts).
 */
import { type RequestHandler, Router } from 'express';
import { AppError, isLivemode, type QuernMode } from '@quern/core';
import { IDEMPOTENCY_KEY_PATTERN } from '@quern/core/wallet';
import { z } from 'zod';
import { apiKeyAuth, merchantOf } from '../merchant-keys/bearer.js';
import type { MerchantKeysService } from '../merchant-keys/service.js';
import type { ContextFactory } from '../http/rest.js';
import { withLivemode } from './livemode.js';
import type { V1Route } from './route.js';

export const V1_BASE = '/api/v1';

/** `/payments/{order}` → `/payments/:order` (Express 5 path syntax). */
export const expressPath = (path: string): string => V1_BASE + path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');

const emptyQuery = z.strictObject({});
const emptyBody = z.union([z.strictObject({}), z.undefined()]);

/** The Idempotency-Key header of a money-moving write: required, printable ASCII, at most 255. */
function idempotencyKeyOf(header: string | undefined): string {
  if (header === undefined || header === '')
    throw new AppError('VALIDATION', 'errors:idempotencyKeyRequired', { 'Idempotency-Key': 'errors:idempotencyKeyRequired' });
  if (!IDEMPOTENCY_KEY_PATTERN.test(header))
    throw new AppError('VALIDATION', 'errors:idempotencyKeyInvalid', { 'Idempotency-Key': 'errors:idempotencyKeyInvalid' });
  return header;
}

function handlerOf(createContext: ContextFactory, route: V1Route, livemode: boolean): RequestHandler {
  return async (req, res, next) => {
    try {
      const ctx = createContext(req, res);
      const merchant = merchantOf(res);
      const params = route.params ? route.params.parse({ ...req.params }) : undefined;
      const query = (route.query ?? emptyQuery).parse({ ...req.query });
      const body = route.method === 'get' || route.method === 'delete' ? undefined : (route.body ?? emptyBody).parse(req.body ?? {});
      const idempotencyKey = route.idempotencyKey === 'required' ? idempotencyKeyOf(req.get('idempotency-key')) : undefined;
      const call = { ctx, merchant, params, query, body, idempotencyKey, res };
      if (route.kind === 'stream') {
        await route.run(call);
        return;
      }
      const output = await route.run(call);
      res.status(route.status ?? 200).json(withLivemode(output, livemode));
    } catch (error) {
      next(error);
    }
  };
}

/** `mode` (QUERN_MODE) sets `livemode` on every answer's objects (livemode.ts). */
export function v1Routes(
  createContext: ContextFactory,
  merchantKeys: MerchantKeysService,
  table: readonly V1Route[],
  mode: QuernMode,
): Router {
  const routes = Router();
  const auth = apiKeyAuth(merchantKeys);
  const livemode = isLivemode(mode);
  for (const route of table) routes[route.method](expressPath(route.path), auth, handlerOf(createContext, route, livemode));
  return routes;
}

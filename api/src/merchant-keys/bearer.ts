/**
 * Bearer-key authentication for the integrator API (/api/v1): `apiKeyAuth` is the Express
 * middleware, `merchantOf` reads what it found. A refusal names the scheme in WWW-Authenticate
 * (RFC 6750), so a client knows a key is what is missing.
 */
import type { Request, RequestHandler, Response } from 'express';
import { isAppError } from '@quern/core';
import type { MerchantKeysService, Merchant } from './service.js';

const MERCHANT = 'quernMerchant';

/** Authenticates the request's key (401, or 429 with Retry-After) and remembers its merchant. */
export function apiKeyAuth(merchantKeys: MerchantKeysService): RequestHandler {
  return async (req, res, next) => {
    try {
      res.locals[MERCHANT] = await authenticateApiKey(merchantKeys, req);
      next();
    } catch (error) {
      if (isAppError(error) && error.code === 'UNAUTHENTICATED') res.setHeader('WWW-Authenticate', 'Bearer realm="quern"');
      next(error);
    }
  };
}

export const authenticateApiKey = (merchantKeys: MerchantKeysService, req: Request): Promise<Merchant> =>
  merchantKeys.authenticate(req.get('authorization'));

/** The merchant apiKeyAuth authenticated; a route without apiKeyAuth in front is a programming error. */
export function merchantOf(res: Response): Merchant {
  const merchant = res.locals[MERCHANT] as Merchant | undefined;
  if (!merchant) throw new Error('route is missing apiKeyAuth');
  return merchant;
}

/** The identity service's view of one exchange (identity/client.ts), read from Express's request and response. */
import type { IdentityClient } from '../identity/client.js';
import { clientAddressForLimits } from './client-address.js';
import type { HttpExchange } from './context.js';
import { readCookie } from './cookies.js';
import { requestLanguage } from './rest.js';

export function identityClientOf({ req, res }: HttpExchange): IdentityClient {
  return {
    ip: () => clientAddressForLimits(req),
    language: () => requestLanguage(req),
    cookie: (name) => readCookie(req.get('cookie'), name),
    setCookie: (name, value, options) => void res.cookie(name, value, options),
    clearCookie: (name, options) => void res.clearCookie(name, options),
    retryAfter: (seconds) => void res.set('Retry-After', String(seconds)),
  };
}

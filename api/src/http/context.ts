/** What every tRPC procedure and REST handler gets for one request. */
import type { Request, Response } from 'express';
import type { Language } from '@quern/core/i18n';
import type { Session } from '../identity/sessions.js';
import type { ApiServices } from '../services.js';

export interface HttpExchange {
  req: Request;
  res: Response;
}

/** The request's own part, and every capability's service by its name in the list (services.ts, ADR 073). */
export interface RequestContext extends ApiServices {
  http: HttpExchange;
  language: Language;
  /** The caller's session, looked up once per request. */
  getSession(): Promise<Session | undefined>;
}

/** What every tRPC procedure and REST handler gets for one request. */
import type { Request, Response } from 'express';
import type { Language } from '@quern/core/i18n';
import type { Session } from '../identity/sessions.js';

export interface HttpExchange {
  req: Request;
  res: Response;
}

/**
 * Every capability's service, by the name procedures and routes read it under (`ctx.wallet`). Each
 * capability's composition.ts adds its own by declaration merging, so this file names none of them
 * and imports no capability; modules.ts proves that the list builds exactly these (ADR 073).
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each capability's composition.ts.
export interface ApiServices {}

/** The request's own part, and every capability's service. */
export interface RequestContext extends ApiServices {
  http: HttpExchange;
  language: Language;
  /** The caller's session, looked up once per request. */
  getSession(): Promise<Session | undefined>;
}

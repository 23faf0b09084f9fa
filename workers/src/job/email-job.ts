/** What the e-mail jobs share: their dependencies, their result, and payload parsing. */
import type { Clock, EventStore } from '@quern/core';
import type { Mailer } from '@quern/adapters/mail';
import type { Logger } from '@quern/core';

export interface EmailJobDeps {
  store: EventStore;
  mailer: Mailer;
  /** Where users reach Quern, without a trailing slash. */
  publicUrl: string;
  appSecret: string;
  /** The operator's company (COMPANY_NAME), which signs the e-mails; DEFAULT_COMPANY_NAME unless given. */
  companyName?: string;
  clock: Clock;
  logger: Logger;
}

/** COMPANY_NAME's default, as in api/src/config.ts. */
export const DEFAULT_COMPANY_NAME = 'Quern';

/** The company the e-mails of these deps name. */
export const companyOf = (deps: Pick<EmailJobDeps, 'companyName'>): string => deps.companyName ?? DEFAULT_COMPANY_NAME;

export type EmailJobResult =
  | { outcome: 'sent'; messageId: string }
  /** The completion event was already in the log: a re-run or a re-derived job. */
  | { outcome: 'already-sent'; messageId: string }
  /** A reset link that expired before it could be sent; sending it would only confuse. */
  | { outcome: 'expired' }
  /** The address was never proven by its owner (ADR 046): nothing but the verification goes to it. */
  | { outcome: 'unverified' }
  /** Nothing to say any more (a refund claimed or canceled before its link was mailed), or no address left to say it to. */
  | { outcome: 'not-needed' };

/** The statements service, from the composition context (ADR 073): the log, the ledger's clock and the signing key. */
import { isLivemode } from '@quern/core';
import type { CompositionContext } from '../composition.js';
import { parseSeed, seedFromAppSecret, statementSigner } from './signing-key.js';
import { createStatementsService, type StatementsService } from './service.js';

// Every request's context carries it as ctx.statements.
declare module '../http/context.js' {
  interface ApiServices {
    statements: StatementsService;
  }
}

export function composeStatementsService({ config, store, ledger, appSecret }: CompositionContext) {
  const configured = config.STATEMENT_SIGNING_KEY === undefined ? undefined : parseSeed(config.STATEMENT_SIGNING_KEY);
  if (config.STATEMENT_SIGNING_KEY !== undefined && configured === undefined)
    throw new Error('STATEMENT_SIGNING_KEY must be 32 bytes as 64 hex digits or base64');
  const signer = statementSigner(configured ?? seedFromAppSecret(appSecret));
  return { statements: createStatementsService({ store, clock: ledger.clock, signer, livemode: isLivemode(config.QUERN_MODE) }) };
}

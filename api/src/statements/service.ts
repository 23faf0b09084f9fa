/**
 * Monthly statements (ADR 090): a merchant's wallet movements of one month, from the log, signed,
 * as JSON, CSV or PDF, for the merchant named by the API key (/api/v1) or by the session (the web
 * app). Refusals (a malformed or future month, an unknown format) are decided before the first
 * byte; a failure while streaming destroys the connection, so a client never keeps a short file
 * that looks complete. Reads only the log; writes nothing.
 */
import type { Response } from 'express';
import type { Clock, EventStore } from '@quern/core';
import { userStream } from '@quern/core/identity';
import {
  type StatementFormat,
  type StatementQuery,
  type StatementRowFields,
  statementMonthOf,
  statementStatusOf,
} from '@quern/core/statements';
import { logUnexpectedError } from '../http/request-id.js';
import { buildStatement, type StatementRenderer } from './build.js';
import { csvRenderer } from './render-csv.js';
import { jsonRenderer } from './render-json.js';
import { pdfRenderer } from './render-pdf.js';
import type { StatementSigner } from './signing-key.js';
import { statementTexts } from './texts.js';

export interface StatementsServiceDeps {
  store: EventStore;
  /** The ledger's clock: what "now" is when deciding whether a month is over. */
  clock: Clock;
  signer: StatementSigner;
  livemode: boolean;
  /** Tests only: a smaller page of the log. */
  pageSize?: number;
}

export type StatementsService = ReturnType<typeof createStatementsService>;

const CONTENT_TYPES: Record<StatementFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  pdf: 'application/pdf',
};

/** `?format=` wins; else the Accept header picks among the three; else JSON. */
function formatOf(query: StatementQuery, res: Response): StatementFormat {
  if (query.format) return query.format;
  const accepted = res.req.accepts(['application/json', 'text/csv', 'application/pdf']);
  return accepted === 'text/csv' ? 'csv' : accepted === 'application/pdf' ? 'pdf' : 'json';
}

/** Distinct counterparties whose names are remembered during one statement. */
const NAMES_CACHED_MAX = 10_000;

/**
 * A counterparty's name as the log keeps it: the username a user registered with (never erased,
 * ADR 042, so the name survives the account's deletion), a system account's id, or '' for an
 * address outside Quern.
 */
function counterpartyNames(store: EventStore) {
  const names = new Map<string, string>();
  return async (row: StatementRowFields): Promise<string> => {
    const walletId = row.counterparty_wallet;
    if (walletId === '') return '';
    if (walletId.startsWith('system-')) return walletId;
    const known = names.get(walletId);
    if (known !== undefined) return known;
    const [registered] = await store.readStream(userStream(walletId), { maxCount: 1 });
    const name = typeof registered?.data.username === 'string' ? registered.data.username : '';
    if (names.size < NAMES_CACHED_MAX) names.set(walletId, name);
    return name;
  };
}

export function createStatementsService(deps: StatementsServiceDeps) {
  return {
    /** The key statements are signed with, for GET /api/v1/statement-key. */
    publicKey() {
      return {
        object: 'statement_key' as const,
        livemode: deps.livemode,
        algorithm: 'Ed25519' as const,
        public_key: deps.signer.publicKeyBase64,
        public_key_pem: deps.signer.publicKeyPem,
      };
    },

    /** Streams the merchant's statement of `monthText` as the answer. */
    async answer(merchantId: string, monthText: string, query: StatementQuery, res: Response): Promise<void> {
      const month = statementMonthOf(monthText);
      const status = statementStatusOf(month, deps.clock.now().getTime());
      const format = formatOf(query, res);
      const suffix = format === 'json' ? '' : `-${query.lang}`;
      res.status(200);
      res.setHeader('Content-Type', CONTENT_TYPES[format]);
      res.setHeader('Content-Disposition', `attachment; filename="quern-statement-${month.month}${suffix}.${format}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Vary', 'Accept');
      const texts = statementTexts(query.lang);
      const renderer: StatementRenderer =
        format === 'json'
          ? jsonRenderer(res, deps.livemode)
          : format === 'csv'
            ? csvRenderer(res, texts)
            : pdfRenderer(res, texts, query.lang, month);
      try {
        await buildStatement(
          { store: deps.store, signer: deps.signer, counterpartyName: counterpartyNames(deps.store), pageSize: deps.pageSize },
          { merchantId, month, status },
          renderer,
        );
        if (format !== 'pdf') res.end();
      } catch (error) {
        if (!res.destroyed) logUnexpectedError(res.req, error);
        res.destroy();
      }
    },
  };
}

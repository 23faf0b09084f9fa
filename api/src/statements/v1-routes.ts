/** The merchant API's monthly statement (ADR 090), declared for the v1 route table. */
import { statementParams, statementQuery } from '@quern/core/statements';
import { streamRoute, type V1Route } from '../v1/route.js';

export const statementsV1Routes: readonly V1Route[] = [
  streamRoute({
    kind: 'stream',
    method: 'get',
    path: '/statements/{month}',
    operationId: 'getStatement',
    tag: 'Statements',
    summary: 'A signed monthly statement',
    description:
      "Every movement of the merchant's wallet in `month` (`YYYY-MM`, UTC) with its time, counterparty, reference, amount, fee and the USD rate in force, between the opening and closing balances, with totals by kind. Signed by Quern (Ed25519, the key at `GET /api/v1/statement-key`) over a hash chain of the log events it covers: check it offline with `npm run verify-statement`. `format` (`json`, `csv` or `pdf`; else the Accept header; else JSON) and `lang` (`en` or `es`, for CSV and PDF). A closed month always answers the same bytes; the current month answers the statement so far, with `status` `open`. A malformed month answers 400, a month not yet started 422.",
    params: statementParams,
    query: statementQuery,
    produces: 'application/json',
    responseDescription: 'The statement as JSON (or text/csv, or application/pdf, by `format` or Accept), as an attachment.',
    run: ({ ctx, merchant, params, query, res }) => ctx.statements.answer(merchant.userId, params.month, query, res),
  }),
];

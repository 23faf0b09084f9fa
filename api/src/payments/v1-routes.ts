/** The merchant API's payments and balance (ADR 034), declared for the v1 route table. */
import { balanceOutput, paymentsExportQuery, paymentsListOutput, paymentsListQuery } from '@quern/core/payments';
import { jsonRoute, streamRoute, type V1Route } from '../v1/route.js';

export const paymentsV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/payments',
    operationId: 'listPayments',
    tag: 'Payments',
    summary: "The merchant's payments, newest first",
    description:
      'Paid checkout orders with their refunds, newest first, by cursor: pass the `next_cursor` of a page as `starting_after` to get the next one. Payments that arrive meanwhile come before the first page, never inside a walk.',
    query: paymentsListQuery,
    response: paymentsListOutput,
    run: ({ ctx, merchant, query }) => ctx.payments.list(merchant.userId, { limit: query.limit, startingAfter: query.starting_after }),
  }),
  streamRoute({
    kind: 'stream',
    method: 'get',
    path: '/payments/export',
    operationId: 'exportPayments',
    tag: 'Payments',
    summary: 'Payments as CSV',
    description:
      'Payments created from `from` to `to` (inclusive), oldest first, as CSV with the header `order,created,amount,refunded,currency,usd_rate,usd_value,shopper`. Streamed: any range exports in bounded memory.',
    query: paymentsExportQuery,
    produces: 'text/csv',
    responseDescription: 'The CSV file (RFC 4180, CRLF line ends), as an attachment.',
    run: ({ ctx, merchant, query, res }) => ctx.payments.exportCsv(merchant.userId, query, res),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/balance',
    operationId: 'getBalance',
    tag: 'Payments',
    summary: "The merchant's wallet balance",
    description: "What the spec's `GET /api/millix/balance/{address}` answers for the wallet of the key's owner.",
    response: balanceOutput,
    run: ({ ctx, merchant }) => ctx.payments.balance(merchant.userId),
  }),
];

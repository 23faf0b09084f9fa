/** The merchant API's payments and balance (ADR 034), declared for the v1 route table. */
import { balanceOutput, paymentOutput, paymentsExportQuery, paymentsListOutput, paymentsListQuery } from '@quern/core/payments';
import { balanceQuery, paymentIdParams, paymentQuery } from '@quern/core/as-of';
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
  // After /payments/export, which it would otherwise take for a payment id.
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/payments/{id}',
    operationId: 'getPayment',
    tag: 'Payments',
    summary: 'A payment, now or as of a moment',
    description:
      "One of the merchant's payments, exactly as an item of the list. With `as_of` (a cursor of the events feed or an ISO 8601 date-time), the payment as it was then, replayed from the log: refunds made later are left out, and a payment not yet made then is answered 404 like an unknown one. A moment later than now is refused (400).",
    params: paymentIdParams,
    query: paymentQuery,
    response: paymentOutput,
    run: ({ ctx, merchant, params, query }) => ctx.payments.payment(merchant.userId, params.id, query.as_of),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/balance',
    operationId: 'getBalance',
    tag: 'Payments',
    summary: "The merchant's wallet balance",
    description:
      "What the spec's `GET /api/millix/balance/{address}` answers for the wallet of the key's owner. With `as_of` (a cursor of the events feed or an ISO 8601 date-time), the balance as it was then, replayed from the log from the end of the day before (ADR 089): zero before the wallet existed. A moment later than now is refused (400).",
    query: balanceQuery,
    response: balanceOutput,
    run: ({ ctx, merchant, query }) => ctx.payments.balance(merchant.userId, query.as_of),
  }),
];

/** Invoices (issue 27, ADR 081), declared for the v1 route table. */
import {
  INVOICES_PAGE_SIZE,
  invoiceCreateInput,
  invoiceIdParams,
  invoiceOutput,
  invoicesListOutput,
  invoicesListQuery,
  invoiceRefundCreateInput,
  invoiceRefundOutput,
  invoiceRefundParams,
} from '@quern/core/invoices';
import { paymentsExportQuery } from '@quern/core/payments';
import { jsonRoute, streamRoute, type V1Route } from '../v1/route.js';
import { INVOICES_CSV_HEADER } from './csv-export.js';

export const invoiceV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/invoices',
    operationId: 'createInvoice',
    tag: 'Invoices',
    summary: 'Ask for a payment anyone with millix can make',
    description:
      "An invoice with its own millix address of the merchant's wallet, a `millix:` payment URI for QR codes and a hosted page (`hosted_url`) open to anyone. It is paid from any millix wallet by sending the amount to `address`, or from a Quern balance on the hosted page. A USD price is converted to MLX at the rate in force now, rounded up, and fixed for the invoice's life (`usd_rate`). A retry with the same Idempotency-Key and body answers the first invoice; the same key with another body answers 422.",
    body: invoiceCreateInput,
    idempotencyKey: 'required',
    status: 201,
    response: invoiceOutput,
    run: ({ ctx, merchant, body, idempotencyKey }) => ctx.invoices.create(merchant.userId, idempotencyKey as string, body),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/invoices',
    operationId: 'listInvoices',
    tag: 'Invoices',
    summary: "The merchant's invoices, newest first",
    description: `Invoices newest first, ${INVOICES_PAGE_SIZE} a page unless \`limit\` says; pass a page's \`next_cursor\` as \`starting_after\` for the next. \`status\` keeps those with that status now. Invoices created meanwhile come before the first page, never inside a walk.`,
    query: invoicesListQuery,
    response: invoicesListOutput,
    run: ({ ctx, merchant, query }) =>
      ctx.invoices.list(merchant.userId, {
        limit: query.limit ?? INVOICES_PAGE_SIZE,
        ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
        ...(query.status === undefined ? {} : { status: query.status }),
      }),
  }),
  // Before `/invoices/{id}`: Express matches in order, and `export` would otherwise be read as an id.
  streamRoute({
    kind: 'stream',
    method: 'get',
    path: '/invoices/export',
    operationId: 'exportInvoices',
    tag: 'Invoices',
    summary: 'Invoices as CSV',
    description: `Invoices created from \`from\` to \`to\` (inclusive), oldest first, each with its status and payments now, as CSV with the header \`${INVOICES_CSV_HEADER.join(',')}\`. Streamed: any range exports in bounded memory.`,
    query: paymentsExportQuery,
    produces: 'text/csv',
    responseDescription: 'The CSV file (RFC 4180, CRLF line ends), as an attachment.',
    run: ({ ctx, merchant, query, res }) => ctx.invoices.exportCsv(merchant.userId, query, res),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/invoices/{id}',
    operationId: 'getInvoice',
    tag: 'Invoices',
    summary: 'An invoice',
    description: "One of the merchant's invoices by id, with its status and payments now.",
    params: invoiceIdParams,
    response: invoiceOutput,
    run: ({ ctx, merchant, params }) => ctx.invoices.get(merchant.userId, params.id),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/invoices/{id}/void',
    operationId: 'voidInvoice',
    tag: 'Invoices',
    summary: 'Void an invoice nothing was paid to',
    description:
      'The invoice takes no payment any more and its page shows no address. Only while nothing was paid to it (409 otherwise: refund instead). Voiding a void invoice answers it unchanged. MLX that still reaches its address is credited to the merchant and recorded on it, never lost.',
    params: invoiceIdParams,
    response: invoiceOutput,
    run: ({ ctx, merchant, params }) => ctx.invoices.void(merchant.userId, params.id),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/invoices/{id}/refunds',
    operationId: 'createInvoiceRefund',
    tag: 'Invoices',
    summary: 'Refund what reached an invoice',
    description:
      "Gives back part or all of what reached the invoice and is stable, less what other refunds hold, to whoever paid it, from any millix wallet. No MLX moves yet: the answer's `claim_url` is a single-use link where the payer names the millix address to refund to (mailed to the invoice's `customer_email` when it has one; otherwise pass it on). When they claim it, it is sent as a payout from your wallet under the usual rules (a fee of 1000 MLX, never more than your balance). A retry with the same Idempotency-Key and body answers the first refund; the same key with another body answers 422.",
    params: invoiceIdParams,
    body: invoiceRefundCreateInput,
    idempotencyKey: 'required',
    status: 201,
    response: invoiceRefundOutput,
    run: ({ ctx, merchant, params, body, idempotencyKey }) =>
      ctx.invoices.refund(merchant.userId, params.id, idempotencyKey as string, body),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/invoices/{id}/refunds/{refund_id}/cancel',
    operationId: 'cancelInvoiceRefund',
    tag: 'Invoices',
    summary: 'Cancel a refund nobody claimed',
    description:
      'Its link claims nothing any more and its amount is refundable again. Only while the payer has not claimed it (409 otherwise). Canceling a canceled refund answers it unchanged.',
    params: invoiceRefundParams,
    response: invoiceRefundOutput,
    run: ({ ctx, merchant, params }) => ctx.invoices.cancelRefund(merchant.userId, params.id, params.refund_id),
  }),
];

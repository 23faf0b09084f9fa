/** Payment links (ADR 084), declared for the v1 route table. */
import {
  PAYMENT_LINKS_PAGE_SIZE,
  paymentLinkCreateInput,
  paymentLinkIdParams,
  paymentLinkOutput,
  paymentLinksListOutput,
  paymentLinksListQuery,
} from '@quern/core/payment-links';
import { jsonRoute, type V1Route } from '../v1/route.js';

export const paymentLinkV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/payment-links',
    operationId: 'createPaymentLink',
    tag: 'Payment links',
    summary: 'A reusable link that makes a fresh invoice for each visitor',
    description:
      "A link (`url`, `/pay/{slug}`) to share anywhere: each visitor gets a fresh invoice of the merchant, with the link's description and `metadata.payment_link` set to its id. With `amount` every visitor pays it; without, the visitor types the amount, within `min_amount` and `max_amount` when given. A retry with the same Idempotency-Key and body answers the first link; the same key with another body answers 422.",
    body: paymentLinkCreateInput,
    idempotencyKey: 'required',
    status: 201,
    response: paymentLinkOutput,
    run: ({ ctx, merchant, body, idempotencyKey }) => ctx.paymentLinks.create(merchant.userId, idempotencyKey as string, body),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/payment-links',
    operationId: 'listPaymentLinks',
    tag: 'Payment links',
    summary: "The merchant's payment links, newest first",
    description: `Links newest first, ${PAYMENT_LINKS_PAGE_SIZE} a page unless \`limit\` says; pass a page's \`next_cursor\` as \`starting_after\` for the next.`,
    query: paymentLinksListQuery,
    response: paymentLinksListOutput,
    run: ({ ctx, merchant, query }) =>
      ctx.paymentLinks.list(merchant.userId, {
        limit: query.limit ?? PAYMENT_LINKS_PAGE_SIZE,
        ...(query.starting_after === undefined ? {} : { startingAfter: query.starting_after }),
      }),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/payment-links/{id}',
    operationId: 'getPaymentLink',
    tag: 'Payment links',
    summary: 'A payment link',
    description: "One of the merchant's payment links by id.",
    params: paymentLinkIdParams,
    response: paymentLinkOutput,
    run: ({ ctx, merchant, params }) => ctx.paymentLinks.get(merchant.userId, params.id),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/payment-links/{id}/deactivate',
    operationId: 'deactivatePaymentLink',
    tag: 'Payment links',
    summary: 'Turn a payment link off',
    description:
      'The link makes no more invoices; its page says it is off. Invoices it made stay as they are. Turning off a link that is off answers it unchanged.',
    params: paymentLinkIdParams,
    response: paymentLinkOutput,
    run: ({ ctx, merchant, params }) => ctx.paymentLinks.deactivate(merchant.userId, params.id),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/payment-links/{id}/activate',
    operationId: 'activatePaymentLink',
    tag: 'Payment links',
    summary: 'Turn a payment link on again',
    description: 'The link makes invoices again, at the same URL. Turning on a link that is on answers it unchanged.',
    params: paymentLinkIdParams,
    response: paymentLinkOutput,
    run: ({ ctx, merchant, params }) => ctx.paymentLinks.activate(merchant.userId, params.id),
  }),
];

/** Refunds of checkout orders (ADR 033), declared for the v1 route table. */
import { refundCreateInput, refundIdParams, refundOutput } from '@quern/core/refunds';
import { jsonRoute, type V1Route } from '../v1/route.js';

export const refundV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/refunds',
    operationId: 'createRefund',
    tag: 'Refunds',
    summary: 'Refund a paid order',
    description:
      "Gives MLX of one of the merchant's paid checkout orders back to its shopper, from the merchant's wallet (no fee). Without `amount`, everything not yet refunded. The refunds of an order never sum above what was paid. A retry with the same Idempotency-Key and body answers as the first request and moves nothing; the same key with another body answers 422.",
    body: refundCreateInput,
    idempotencyKey: 'required',
    status: 201,
    response: refundOutput,
    run: ({ ctx, merchant, body, idempotencyKey }) => ctx.refunds.create(merchant.userId, idempotencyKey as string, body),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/refunds/{id}',
    operationId: 'getRefund',
    tag: 'Refunds',
    summary: 'A refund',
    description: "One of the merchant's refunds by id.",
    params: refundIdParams,
    response: refundOutput,
    run: ({ ctx, merchant, params }) => ctx.refunds.get(merchant.userId, params.id),
  }),
];

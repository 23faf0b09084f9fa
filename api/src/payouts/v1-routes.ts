/** Payouts from the merchant's wallet (ADR 033), declared for the v1 route table. */
import { payoutCreateInput, payoutIdParams, payoutOutput } from '@quern/core/payouts';
import { jsonRoute, type V1Route } from '../v1/route.js';

export const payoutV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/payouts',
    operationId: 'createPayout',
    tag: 'Payouts',
    summary: 'Send MLX from the merchant wallet',
    description:
      "A send from the merchant's wallet under the rules of any send: a fee of 1000 MLX, never more than the wallet holds, not to the merchant itself. To a Quern user it completes at once; to an external millix address it is `pending` until the network settles it. A retry with the same Idempotency-Key and body answers as the first request and moves nothing; the same key with another body answers 422.",
    body: payoutCreateInput,
    idempotencyKey: 'required',
    status: 201,
    response: payoutOutput,
    run: ({ ctx, merchant, body, idempotencyKey }) => ctx.payouts.create(merchant.userId, idempotencyKey as string, body),
  }),
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/payouts/{id}',
    operationId: 'getPayout',
    tag: 'Payouts',
    summary: 'A payout',
    description: "One of the merchant's payouts by id, with its status now.",
    params: payoutIdParams,
    response: payoutOutput,
    run: ({ ctx, merchant, params }) => ctx.payouts.get(merchant.userId, params.id),
  }),
];

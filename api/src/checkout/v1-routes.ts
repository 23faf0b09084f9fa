/** The merchant API's order verification (ADR 031), declared for the v1 route table. */
import { merchantOrderOutput, merchantOrderQuery, merchantOrderVerifyInput } from '@quern/core/checkout';
import { z } from 'zod';
import { jsonRoute, type V1Route } from '../v1/route.js';

const orderParams = z.strictObject({ order: z.string().max(200) });

export const checkoutV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/orders/{order}',
    operationId: 'getOrder',
    tag: 'Orders',
    summary: 'A paid checkout order',
    description:
      "One of the merchant's paid orders by id; with `token`, the token the checkout reported must name that order; with `reference`, the order must carry the shop's own order reference. Check amount and reference, and fulfil each order once.",
    params: orderParams,
    query: merchantOrderQuery,
    response: merchantOrderOutput,
    run: ({ ctx, merchant, params, query }) => ctx.checkout.merchantOrder(merchant.userId, params.order, query.token, query.reference),
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/orders/verify',
    operationId: 'verifyOrderToken',
    tag: 'Orders',
    summary: "Verify a checkout's token",
    description:
      "The order a checkout token names, when it is genuine and the order is paid to this merchant; with `reference`, only when the order carries the shop's own order reference. Check amount and reference, and fulfil each order once.",
    body: merchantOrderVerifyInput,
    response: merchantOrderOutput,
    run: ({ ctx, merchant, body }) => ctx.checkout.verifyToken(merchant.userId, body.token, body.reference),
  }),
];

/** The merchant API's key check (`GET /api/v1/me`), declared for the v1 route table. */
import { z } from 'zod';
import { jsonRoute, type V1Route } from '../v1/route.js';

export const meOutput = z.object({ id: z.string(), username: z.string() });

export const merchantKeysV1Routes: readonly V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/me',
    operationId: 'getMe',
    tag: 'Account',
    summary: 'The account the key belongs to',
    description: 'Answers who the bearer key authenticates, so an integration can check its setup.',
    response: meOutput,
    run: ({ ctx, merchant }) => ctx.merchantKeys.me(merchant),
  }),
];

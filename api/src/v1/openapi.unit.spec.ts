// Proves the OpenAPI document generated from a route table is valid OpenAPI 3.1 (checked by
// @readme/openapi-parser against the specification's schema) and says what the router does: every
// entry of the real table and of a synthetic table shaped like the slices to come (cursor pages,
// idempotent writes, a CSV stream, a delete, a 201) appears with its parameters, body, answer,
// Idempotency-Key header and common error answers; two entries for one operation are refused.
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { v1OpenApiDocument } from './openapi.js';
import { jsonRoute, streamRoute, type V1Route } from './route.js';
import { v1RouteTable } from './table.js';

const notCalled = async (): Promise<never> => {
  throw new Error('not called in this test');
};

const payment = z.object({ id: z.string(), amount: z.string().meta({ description: 'Whole MLX.' }), created_at: z.string() });
const synthetic: V1Route[] = [
  jsonRoute({
    kind: 'json',
    method: 'get',
    path: '/synthetic/list',
    operationId: 'syntheticList',
    tag: 'Payments',
    summary: 'Payments, newest first',
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(10),
      starting_after: z.string().max(200).optional(),
    }),
    response: z.object({ data: z.array(payment), has_more: z.boolean() }),
    run: notCalled,
  }),
  jsonRoute({
    kind: 'json',
    method: 'post',
    path: '/synthetic/idempotent',
    operationId: 'syntheticIdempotentCreate',
    tag: 'Payouts',
    summary: 'Pay out to a millix address',
    status: 201,
    idempotencyKey: 'required',
    body: z.strictObject({ amount: z.string().regex(/^[1-9]\d{0,15}$/), address: z.string().max(100) }),
    response: z.strictObject({ id: z.string(), status: z.enum(['pending', 'settled']) }),
    run: notCalled,
  }),
  streamRoute({
    kind: 'stream',
    method: 'get',
    path: '/synthetic/export',
    operationId: 'syntheticExport',
    tag: 'Payments',
    summary: 'Payments as CSV',
    query: z.strictObject({ from: z.iso.date().optional() }),
    produces: 'text/csv',
    responseDescription: 'One line per payment, with the rate at the time.',
    run: notCalled,
  }),
  jsonRoute({
    kind: 'json',
    method: 'delete',
    path: '/synthetic/items/{endpoint}',
    operationId: 'syntheticDelete',
    tag: 'Webhooks',
    summary: 'Stop sending events to an endpoint',
    params: z.strictObject({ endpoint: z.string().max(64) }),
    response: z.object({ id: z.string(), deleted: z.literal(true) }),
    run: notCalled,
  }),
];

const table = [...v1RouteTable, ...synthetic];
const document = v1OpenApiDocument(table, { publicUrl: 'https://quern.example' });
// biome-ignore lint/suspicious/noExplicitAny: the assertions walk the generated JSON.
const operation = (route: V1Route): any => (document.paths?.[route.path] as any)?.[route.method];

describe('the generated OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Quern merchant API');
    expect(document.servers).toEqual([{ url: 'https://quern.example/api/v1' }]);
  });

  it('is checked by a validator that does refuse a broken document', async () => {
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, { parameters?: unknown }>> };
    // OpenAPI 2's body parameter does not exist in 3.x.
    (broken.paths['/me']?.get ?? {}).parameters = [{ in: 'body', name: 'x', schema: { type: 'string' } }];
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('names a relative server when PUBLIC_URL is unknown', () => {
    expect(v1OpenApiDocument(v1RouteTable, {}).servers).toEqual([{ url: '/api/v1' }]);
  });

  it.each(table.map((route) => [route.operationId, route] as const))(
    'has %s at its path and method, behind the bearer key',
    (_id, route) => {
      const op = operation(route);
      expect(op.operationId).toBe(route.operationId);
      expect(op.tags).toEqual([route.tag]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '401', '429']));
      expect(op.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    },
  );

  it('requires the bearer key everywhere and describes the error body once', () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components?.securitySchemes?.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const error = document.components?.schemas?.Error as { properties: Record<string, unknown> };
    expect(Object.keys(error.properties)).toEqual(['error', 'request_id']);
    expect(document.components?.responses?.RateLimited).toMatchObject({ headers: { 'Retry-After': { schema: { type: 'string' } } } });
  });

  it('gives path and query parameters their schemas, and a write its body', () => {
    const getOrder = operation(v1RouteTable.find((route) => route.operationId === 'getOrder') as V1Route);
    expect(getOrder.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'order', required: true }),
        expect.objectContaining({ in: 'query', name: 'token' }),
      ]),
    );
    expect(getOrder.responses['404']).toEqual({ $ref: '#/components/responses/NotFound' });
    const list = operation(synthetic[0] as V1Route);
    expect(list.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ in: 'query', name: 'limit', schema: expect.objectContaining({ maximum: 100 }) })]),
    );
    // An answer's object stays open to added fields unless its schema is strict.
    expect(list.responses['200'].content['application/json'].schema.additionalProperties).toBeUndefined();
  });

  it('gives an idempotent write its Idempotency-Key header, 422 and its own success status', () => {
    const payout = operation(synthetic[1] as V1Route);
    expect(payout.parameters).toEqual([expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true })]);
    expect(payout.requestBody.content['application/json'].schema.required).toEqual(['amount', 'address']);
    expect(Object.keys(payout.responses)).toEqual(expect.arrayContaining(['201', '422']));
    expect(payout.responses['201'].content['application/json'].schema.additionalProperties).toBe(false);
    for (const route of table.filter((r) => r.idempotencyKey !== 'required'))
      expect(JSON.stringify(operation(route).parameters ?? [])).not.toContain('Idempotency-Key');
  });

  it('describes a stream by its content type', () => {
    const csv = operation(synthetic[2] as V1Route);
    expect(csv.responses['200']).toEqual({
      description: 'One line per payment, with the rate at the time.',
      content: { 'text/csv': { schema: { type: 'string' } } },
    });
  });

  it('puts a required livemode on every JSON answer and on each item of a list (ADR 050)', () => {
    for (const route of table.filter((r) => r.kind === 'json')) {
      const status = String((route.kind === 'json' && route.status) || 200);
      const schema = operation(route).responses[status].content['application/json'].schema;
      expect(schema.properties.livemode, route.operationId).toMatchObject({ type: 'boolean' });
      expect(schema.required, route.operationId).toContain('livemode');
      if (schema.properties.object?.const === 'list') {
        expect(schema.properties.data.items.properties.livemode, route.operationId).toMatchObject({ type: 'boolean' });
        expect(schema.properties.data.items.required, route.operationId).toContain('livemode');
      }
    }
    expect(document.info.description).toContain('qk_test_');
  });

  it('refuses a table that declares one operation twice', () => {
    const twice = [...v1RouteTable, { ...(v1RouteTable[0] as V1Route), path: '/elsewhere' }];
    expect(() => v1OpenApiDocument(twice, {})).toThrow(/operationId getMe twice/);
  });
});

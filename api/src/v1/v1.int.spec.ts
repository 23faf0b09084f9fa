// Proves the merchant API's edge over real HTTP: every refusal under /api/v1 (no key, unknown
// path, wrong method, broken JSON, a body too large, an unknown field) answers the one error
// shape with its type, code, field and request id, in the caller's language; and the OpenAPI
// document is served without a key, cacheable (ETag, 304), names every operation of the table
// and its server, and is the same one the generator builds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { v1ErrorSchema } from './errors.js';
import { v1RouteTable } from './table.js';

let quern: TestQuern;
let key: string;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', PUBLIC_URL: 'https://pay.quern.example' });
  const user = {
    userName: 'v1_edge',
    firstName: 'V',
    lastName: 'E',
    email: 'v1_edge@example.com',
    phone: '+15550007001',
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const generated = await quern.call('POST', '/api/direct/key-generate', { cookie: cookieOf(login.setCookie) });
  key = generated.body.content.api_key as string;
});
afterAll(async () => {
  await quern?.stop();
});

const bearer = () => ({ authorization: `Bearer ${key}` });

describe('the /api/v1 error shape', () => {
  it.each([
    ['no key', 'GET', '/api/v1/me', {}, undefined, 401, 'authentication_error', 'invalid_api_key', undefined],
    ['an unknown path', 'GET', '/api/v1/nothing-here', {}, undefined, 404, 'not_found_error', 'not_found', undefined],
    ['an unknown path without a key', 'POST', '/api/v1/nothing/here', {}, '{}', 404, 'not_found_error', 'not_found', undefined],
    ['a method the path does not have', 'DELETE', '/api/v1/me', {}, undefined, 404, 'not_found_error', 'not_found', undefined],
    ['broken JSON', 'POST', '/api/v1/orders/verify', { auth: true }, '{"token":', 400, 'invalid_request_error', 'invalid_json', undefined],
    [
      'an unknown field',
      'POST',
      '/api/v1/orders/verify',
      { auth: true },
      '{"token":"a.b","extra":1}',
      400,
      'invalid_request_error',
      'unknown_field',
      'extra',
    ],
    ['a missing field', 'POST', '/api/v1/orders/verify', { auth: true }, '{}', 400, 'invalid_request_error', undefined, 'token'],
    [
      'a body too large',
      'POST',
      '/api/v1/orders/verify',
      { auth: true },
      JSON.stringify({ token: 'x'.repeat(40_000) }),
      413,
      'invalid_request_error',
      'request_too_large',
      undefined,
    ],
  ] as const)('%s', async (_name, method, path, options, body, status, type, code, field) => {
    const answer = await quern.call(method, path, { body, headers: 'auth' in options ? bearer() : {} });
    expect(answer.status).toBe(status);
    const parsed = v1ErrorSchema.strict().parse(answer.body);
    expect(parsed.error.type).toBe(type);
    if (code !== undefined) expect(parsed.error.code).toBe(code);
    expect(parsed.error.field).toBe(field);
    expect(parsed.error.message).toMatch(/\S/);
    expect(parsed.request_id).toBe(answer.headers.get('x-request-id'));
    expect(Object.keys(answer.body)).toEqual(['error', 'request_id']);
  });

  it("answers in the caller's language", async () => {
    const en = await quern.call('GET', '/api/v1/nothing-here', { headers: bearer() });
    const es = await quern.call('GET', '/api/v1/nothing-here', { headers: { ...bearer(), 'accept-language': 'es-MX,es;q=0.9' } });
    expect(es.body.error.code).toBe(en.body.error.code);
    expect(es.body.error.message).not.toBe(en.body.error.message);
    expect(es.body.error.message).toMatch(/\S/);
  });

  it('leaves the other API families in their own shapes', async () => {
    const rest = await quern.call('GET', '/api/nothing-here');
    expect(rest.status).toBe(404);
    expect(rest.body.code).toBe('NOT_FOUND');
    expect(rest.body.error).toBeUndefined();
  });
});

describe('GET /api/v1/openapi.json', () => {
  it('is served without a key, cacheable, with every operation of the table and the public server', async () => {
    const answer = await quern.call('GET', '/api/v1/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.servers).toEqual([{ url: 'https://pay.quern.example/api/v1' }]);
    const operationIds = Object.values(answer.body.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(operationIds.sort()).toEqual(v1RouteTable.map((route) => route.operationId).sort());
  });

  it('answers 304 to a revalidation with its ETag', async () => {
    const first = await quern.call('GET', '/api/v1/openapi.json');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/\S/);
    // fetch would add `Cache-Control: no-cache` to a conditional request, which asks for a full answer.
    const again = await fetch(`${quern.url}/api/v1/openapi.json`, {
      headers: { 'if-none-match': etag as string, 'cache-control': 'max-age=0' },
    });
    expect(again.status).toBe(304);
  });

  it('other /api/v1 answers stay private (no-store)', async () => {
    expect((await quern.call('GET', '/api/v1/me', { headers: bearer() })).headers.get('cache-control')).toBe('no-store');
  });
});

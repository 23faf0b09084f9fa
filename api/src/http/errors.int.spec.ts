// Proves the error answers over real HTTP: each error kind has the same status on tRPC as on
// REST (401, 403, 404, 400, 409, 429 with Retry-After), every response carries a request id
// (a well-formed incoming one is kept), an unexpected error is logged exactly once with the id,
// method, path and stack while the client sees only the generic message and the id, and bodies
// nested 5,000 deep are refused with 400 before parsing while the process keeps answering.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cookieOf, startTestQuern, type TestQuern } from '../../test/quern.js';
import { type RawRequest, type RawResponse, rawRequest } from '../../test/raw-http.js';
import { log } from '@quern/adapters/runtime';

let quern: TestQuern;
let cookie: string;
let userId: string;
const json = { 'content-type': 'application/json' };
const alice = {
  userName: 'err_alice',
  firstName: 'A',
  lastName: 'E',
  email: 'err_alice@example.com',
  phone: '+15550005555',
  password: 'long enough secret',
};

/** Sends with alice's session unless the request sets `cookie: ''` (a visitor). */
function send(req: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { ...(cookie ? { cookie } : {}), ...req.headers };
  if (headers.cookie === '') delete headers.cookie;
  return rawRequest(quern.url, { ...req, headers });
}
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  send({ method: 'POST', path, headers: { ...json, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const get = (path: string, headers: Record<string, string> = {}) => send({ method: 'GET', path, headers });
const trpcQuery = (path: string, input?: unknown, headers: Record<string, string> = {}) =>
  get(`/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`, headers);
/** The app error of a tRPC answer. */
const appErrorOf = (response: RawResponse) => response.body.error.data.appError;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', LOGIN_FREE_FAILURES: '2' });
  expect((await post('/api/user/register', alice)).status).toBe(200);
  const login = await rawRequest(quern.url, {
    method: 'POST',
    path: '/api/user/login',
    headers: json,
    body: JSON.stringify({ email: alice.email, password: alice.password }),
  });
  cookie = cookieOf(String(login.headers['set-cookie'] ?? ''));
  userId = (await post('/api/auth/verify', '{}')).body.id;
});
afterAll(async () => {
  await quern?.stop();
});

describe('error statuses: one table for tRPC and REST', () => {
  it('given no session, when a protected call is made, then 401 UNAUTHORIZED on both', async () => {
    const trpc = await trpcQuery('wallet.balance', undefined, { cookie: '' });
    expect(trpc.status).toBe(401);
    expect(trpc.body.error.data).toMatchObject({
      code: 'UNAUTHORIZED',
      httpStatus: 401,
      appError: { code: 'UNAUTHENTICATED', messageKey: 'errors:notAuthenticated' },
    });
    expect((await get('/api/millix/address', { cookie: '' })).status).toBe(401);
  });

  it('given another user’s id, when the profile is read, then 403 FORBIDDEN on both', async () => {
    const otherId = '00000000-0000-4000-8000-000000000000';
    const trpc = await trpcQuery('identity.user', { id: otherId });
    expect(trpc.status).toBe(403);
    expect(trpc.body.error.data.code).toBe('FORBIDDEN');
    expect((await post(`/api/user/get/${otherId}`, '{}')).status).toBe(403);
  });

  it('given an unknown recipient, when sending, then 404 NOT_FOUND on both', async () => {
    const input = { to: 'nobody_here', amount: '5', fee: '1000' };
    const trpc = await post('/trpc/wallet.send', input);
    expect(trpc.status).toBe(404);
    expect(trpc.body.error.data).toMatchObject({ code: 'NOT_FOUND', appError: { messageKey: 'errors:unknownRecipient' } });
    expect((await post('/api/millix/send', input)).status).toBe(404);
  });

  it('given input that fails the schema, when called, then 400 BAD_REQUEST with field messages on both', async () => {
    const trpc = await post('/trpc/identity.login', { email: 'not an e-mail', password: '' });
    expect(trpc.status).toBe(400);
    expect(trpc.body.error.data.code).toBe('BAD_REQUEST');
    expect(appErrorOf(trpc).fields).toEqual({ email: 'errors:invalidEmail', password: 'errors:passwordRequired' });
    expect(appErrorOf(trpc).fieldMessages.email).toBe('Please enter a valid e-mail address.');
    const rest = await post('/api/user/login', { email: 'not an e-mail', password: '' });
    expect(rest.status).toBe(400);
    expect(rest.body.fields).toEqual(appErrorOf(trpc).fields);
  });

  it('given a taken username, when registering, then 409 CONFLICT on both', async () => {
    const trpc = await post('/trpc/identity.register', { ...alice, email: 'other@example.com', phone: '+15550006666' });
    expect(trpc.status).toBe(409);
    expect(trpc.body.error.data).toMatchObject({ code: 'CONFLICT', appError: { messageKey: 'errors:usernameTaken' } });
    expect((await post('/api/user/register', { ...alice, email: 'other@example.com', phone: '+15550006666' })).status).toBe(409);
  });

  it('given too many failed sign-ins, when signing in again, then 429 TOO_MANY_REQUESTS with Retry-After on both', async () => {
    const wrong = { email: alice.email, password: 'wrong password' };
    for (let attempt = 0; attempt < 2; attempt++) await post('/api/user/login', wrong);
    const trpc = await post('/trpc/identity.login', wrong);
    expect(trpc.status).toBe(429);
    expect(trpc.body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', appError: { code: 'RATE_LIMITED' } });
    const minutes = appErrorOf(trpc).params.minutes;
    expect(trpc.headers['retry-after']).toBe(String(minutes * 60));
    const rest = await post('/api/user/login', wrong);
    expect(rest.status).toBe(429);
    expect(Number(rest.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('request ids', () => {
  it('given a well-formed X-Request-Id, when answered, then the same id is echoed and put in the error body', async () => {
    const response = await trpcQuery('wallet.balance', undefined, { cookie: '', 'x-request-id': 'proxy-id-123' });
    expect(response.headers['x-request-id']).toBe('proxy-id-123');
    expect(response.headers['request-id']).toBe('proxy-id-123');
    expect(appErrorOf(response).requestId).toBe('proxy-id-123');
  });

  it.each([['has spaces'], ['x'.repeat(200)], ['line\tbreak'], ['-leading-dash']])(
    'given a malformed X-Request-Id %j, when answered, then a fresh UUID replaces it',
    async (incoming) => {
      const response = await get('/api/millix/current-rate', { 'x-request-id': incoming });
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    },
  );
});

describe('unexpected errors', () => {
  it.each([
    ['tRPC', '/trpc/identity.register'],
    ['REST', '/api/user/register'],
  ])(
    'given the event store failing, when %s registers, then 500 with errors:internal and the id, logged once with the stack',
    async (_, path) => {
      const logError = vi.spyOn(log, 'error').mockImplementation(() => {});
      const append = vi.spyOn(quern.store, 'append').mockRejectedValueOnce(new Error('disk on fire at /var/secret'));
      try {
        const user = {
          userName: `err_${path.length}`,
          firstName: 'B',
          lastName: 'E',
          email: `err_${path.length}@example.com`,
          phone: `+1555000${path.length}77`,
          password: 'long enough secret',
        };
        const response = await post(path, user, { 'x-request-id': `crash-${path.length}` });
        expect(response.status).toBe(500);
        const error = path.startsWith('/trpc') ? appErrorOf(response) : response.body;
        expect(error).toMatchObject({
          code: 'INTERNAL',
          messageKey: 'errors:internal',
          message: 'Something went wrong. Please try again.',
          requestId: `crash-${path.length}`,
        });
        const text = JSON.stringify(response.body);
        expect(text).not.toContain('disk on fire');
        expect(text).not.toContain('.ts:');
        const lines = logError.mock.calls.filter((args) => args[1] === 'unexpected error');
        expect(lines).toHaveLength(1);
        const [fields] = lines[0] as unknown as [{ requestId: string; method: string; route: string; err: Error }];
        expect(fields).toMatchObject({ requestId: `crash-${path.length}`, method: 'POST', route: path });
        expect(fields.err.message).toBe('disk on fire at /var/secret');
        expect(fields.err.stack).toMatch(/\n\s+at /);
      } finally {
        append.mockRestore();
        logError.mockRestore();
      }
    },
  );

  it('given an expected refusal, when answered, then nothing is logged', async () => {
    const logError = vi.spyOn(log, 'error');
    await trpcQuery('wallet.balance', undefined, { cookie: '' });
    await post('/api/user/login', '{"broken":');
    expect(logError).not.toHaveBeenCalled();
    logError.mockRestore();
  });
});

describe('request bodies', () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);

  it.each([['/api/millix/send'], ['/trpc/wallet.send'], ['/trpc/wallet.send,wallet.send?batch=1']])(
    'given 5,000 nested arrays posted to %s, when answered, then 400 errors:invalidRequest with a field message, and the process still answers',
    async (path) => {
      const response = await post(path, deep);
      expect(response.status).toBe(400);
      const error = path.startsWith('/trpc') ? appErrorOf(response) : response.body;
      expect(error).toMatchObject({
        messageKey: 'errors:invalidRequest',
        fields: { _: 'errors:nestingTooDeep' },
        params: { depthMax: 32 },
      });
      expect(error.fieldMessages._).toBe('The request is nested too deeply (at most 32 levels).');
      expect((await get('/api/millix/current-rate')).status).toBe(200);
    },
  );

  it('given a tRPC GET whose input nests too deep, when answered, then 400 before tRPC parses it', async () => {
    const response = await get(`/trpc/wallet.transactions?input=${encodeURIComponent('['.repeat(1000) + ']'.repeat(1000))}`);
    expect(response.status).toBe(400);
    expect(appErrorOf(response).fields._).toBe('errors:nestingTooDeep');
  });

  it('given invalid JSON, a text body, a Latin-1 body and 40 kB, when posted, then 400, 415, 415 and 413 with a clear message', async () => {
    const invalid = await post('/api/user/login', '{"email":');
    expect([invalid.status, invalid.body.messageKey]).toEqual([400, 'errors:invalidJson']);
    const textBody = await post('/trpc/identity.login', 'email=a', { 'content-type': 'text/plain' });
    expect([textBody.status, appErrorOf(textBody).messageKey]).toEqual([415, 'errors:unsupportedContentType']);
    const latin1 = await post('/api/user/login', '{}', { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    const large = await post('/api/user/login', { email: alice.email, password: 'x'.repeat(40_000) });
    expect([large.status, large.body.messageKey]).toEqual([413, 'errors:requestTooLarge']);
  });

  it('given a POST with no body at all, when it takes no input, then it is answered normally', async () => {
    const response = await send({ method: 'POST', path: '/api/auth/verify' });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(userId);
  });
});

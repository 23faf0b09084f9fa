// Proves the API key's mode (ADR 050) on a real SQLite log and a real Redis: a sandbox issues
// qk_test_ keys and a live Quern qk_live_ keys, each authenticating where it was issued; a live
// Quern refuses a qk_test_ key with a 401 that says why, even one its own log holds; a sandbox
// keeps authenticating the qk_live_ keys it issued before keys carried their mode, and refuses an
// unknown qk_live_ key saying it is a live key; a malformed or unknown key of the instance's own
// mode keeps the plain invalid-key refusal. Over HTTP: the refusal's v1 body in English and Spanish.
import { randomUUID } from 'node:crypto';
import { isAppError, systemClock } from '@quern/core';
import { generateApiKey } from '@quern/core/merchant-keys';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openTempStore, type TempStore } from '@quern/test-support/temp-store';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser } from '../../test/users.js';
import { createMerchantKeysService, type MerchantKeysService } from './service.js';

let temp: TempStore;
let redisServer: RedisServer;
let redis: Redis;
let sandbox: MerchantKeysService;
let live: MerchantKeysService;

const core = () => ({ store: temp.store, clock: systemClock, newId: randomUUID });
const session = (userId: string) => ({ userId }) as never;
const bearer = (key: string) => `Bearer ${key}`;

async function refusalOf(run: Promise<unknown>): Promise<{ code: string; messageKey: string }> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, messageKey: error.messageKey };
}

beforeAll(async () => {
  temp = openTempStore('quern-key-modes-');
  redisServer = await startPrivateRedis();
  redis = new Redis(redisServer.url);
  // Both services over the same log: a test key present in the log is still refused by live.
  sandbox = createMerchantKeysService({ core: core(), mode: 'sandbox', redis, requestsPerMinute: 100, limiterPrefix: 'sandbox' });
  live = createMerchantKeysService({ core: core(), mode: 'live', redis, requestsPerMinute: 100, limiterPrefix: 'live' });
});
afterAll(async () => {
  redis?.disconnect();
  await redisServer?.stop();
  await temp?.dispose();
});

describe('API keys carry their mode', () => {
  it('a sandbox issues qk_test_ keys, masked with their own prefix, which authenticate there', async () => {
    const { content } = await sandbox.keyGenerate(session('merchant-s'), 'en');
    expect(content.api_key).toMatch(/^qk_test_[A-Za-z0-9_-]{43}$/);
    expect((await sandbox.keyGet(session('merchant-s'))).content.api_key).toBe(`qk_test_…${content.api_key.slice(-4)}`);
    expect(await sandbox.authenticate(bearer(content.api_key))).toEqual({ userId: 'merchant-s' });
  });

  it('a live Quern issues qk_live_ keys, which authenticate there', async () => {
    const { content } = await live.keyGenerate(session('merchant-l'), 'en');
    expect(content.api_key).toMatch(/^qk_live_[A-Za-z0-9_-]{43}$/);
    expect((await live.keyGet(session('merchant-l'))).content.api_key).toBe(`qk_live_…${content.api_key.slice(-4)}`);
    expect(await live.authenticate(bearer(content.api_key))).toEqual({ userId: 'merchant-l' });
  });

  it('a live Quern refuses a sandbox key with a message saying so, even a key its log holds', async () => {
    const { content } = await sandbox.keyGenerate(session('merchant-t'), 'en');
    expect(await refusalOf(live.authenticate(bearer(content.api_key)))).toEqual({
      code: 'UNAUTHENTICATED',
      messageKey: 'errors:sandboxKeyOnLive',
    });
    expect(await refusalOf(live.authenticate(bearer(`qk_test_${'C'.repeat(43)}`)))).toEqual({
      code: 'UNAUTHENTICATED',
      messageKey: 'errors:sandboxKeyOnLive',
    });
  });

  it('a sandbox keeps authenticating a qk_live_ key it issued before keys carried their mode', async () => {
    // What key-generate appended before this change: the same events with the qk_live_ prefix.
    const legacy = await generateApiKey(core(), 'merchant-old', new Uint8Array(32).fill(7), 'live');
    expect(legacy.apiKey.startsWith('qk_live_')).toBe(true);
    expect(await sandbox.authenticate(bearer(legacy.apiKey))).toEqual({ userId: 'merchant-old' });
    expect((await sandbox.keyGet(session('merchant-old'))).content.api_key).toBe(`qk_live_…${legacy.apiKey.slice(-4)}`);
  });

  it('a sandbox refuses an unknown qk_live_ key saying it is a live key; other bad keys stay invalid', async () => {
    expect(await refusalOf(sandbox.authenticate(bearer(`qk_live_${'D'.repeat(43)}`)))).toEqual({
      code: 'UNAUTHENTICATED',
      messageKey: 'errors:liveKeyOnSandbox',
    });
    for (const [service, key] of [
      [sandbox, `qk_test_${'E'.repeat(43)}`],
      [live, `qk_live_${'E'.repeat(43)}`],
      [live, 'qk_test_short'],
      [sandbox, 'qk_live_short'],
    ] as const)
      expect(await refusalOf(service.authenticate(bearer(key)))).toEqual({ code: 'UNAUTHENTICATED', messageKey: 'errors:invalidApiKey' });
  });
});

describe('over HTTP (a sandbox Quern)', () => {
  let quern: TestQuern;
  beforeAll(async () => {
    quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
  });
  afterAll(async () => {
    await quern?.stop();
  });

  it('key-generate answers a qk_test_ key; an unknown qk_live_ key is 401 with the reason, in en and es', async () => {
    const user = await registerUser(quern, 'keymode');
    const generated = await quern.call('POST', '/api/direct/key-generate', { cookie: user.cookie });
    expect(generated.body.content.api_key).toMatch(/^qk_test_[A-Za-z0-9_-]{43}$/);
    const ok = await quern.call('GET', '/api/v1/me', { headers: { authorization: bearer(generated.body.content.api_key) } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: user.id, livemode: false });

    const liveKey = bearer(`qk_live_${'F'.repeat(43)}`);
    const en = await quern.call('GET', '/api/v1/me', { headers: { authorization: liveKey } });
    expect(en.status).toBe(401);
    expect(en.headers.get('www-authenticate')).toBe('Bearer realm="quern"');
    expect(en.body.error).toMatchObject({ type: 'authentication_error', code: 'live_key_on_sandbox' });
    expect(en.body.error.message).toContain('This is a live key (qk_live_…)');
    const es = await quern.call('GET', '/api/v1/me', { headers: { authorization: liveKey, 'accept-language': 'es' } });
    expect(es.body.error.message).toContain('Esta es una clave real (qk_live_…)');
  });
});

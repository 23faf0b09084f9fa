// Proves that /healthz tells anyone only whether Quern is up, and gives which part is down and
// its error text only to a caller on the machine itself or one presenting HEALTH_TOKEN; a caller
// forwarded by a proxy, or naming a wrong token, gets the status and the mode alone.
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HealthReport } from '../health.js';
import { healthRoute } from './health-route.js';

const TOKEN = 'a-monitoring-token-of-at-least-32-chars';
/** A report as the real check writes one when Redis is down: internal error text in `detail`. */
const DOWN: HealthReport = {
  ok: false,
  mode: 'live',
  checks: { eventStore: { ok: true }, redis: { ok: false, detail: 'connect ECONNREFUSED 10.1.2.3:6379' } },
};

let server: Server;
let url = '';

beforeAll(async () => {
  const app = express();
  // As behind one proxy hop (TRUST_PROXY=1): req.ip would be the forwarded client's address.
  app.set('trust proxy', 1);
  app.use(healthRoute(async () => DOWN, TOKEN));
  server = await new Promise<Server>((done) => {
    const s = app.listen(0, '127.0.0.1', () => done(s));
  });
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/healthz`;
});
afterAll(() => new Promise((done) => server.close(done)));

const get = async (headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('GET /healthz', () => {
  it('answers a caller on the machine itself with every part and its detail', async () => {
    const { status, body } = await get();
    expect(status).toBe(503);
    expect(body).toEqual(DOWN);
  });

  it('answers a client forwarded by a proxy with the status and the mode alone', async () => {
    const proxied: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.9' }, { forwarded: 'for=203.0.113.9' }];
    for (const headers of proxied) {
      const { status, body } = await get(headers);
      expect(status).toBe(503);
      expect(body).toEqual({ ok: false, mode: 'live' });
    }
  });

  it('gives the detail to a remote monitor with the token, and only with the right one', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    expect((await get({ ...forwarded, authorization: `Bearer ${TOKEN}` })).body).toEqual(DOWN);
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer ', `Basic ${TOKEN}`])
      expect((await get({ ...forwarded, authorization })).body, authorization).toEqual({ ok: false, mode: 'live' });
  });
});

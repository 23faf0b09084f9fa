// The access log (ADR 052) on a real Express app over HTTP: one JSON line per request with the
// route's pattern (never the raw path or query), status, duration and the request id that the
// response also carries in Request-Id and X-Request-Id.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import express, { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '@quern/adapters/runtime';
import { accessLog } from './access-log.js';
import { requestIds } from './request-id.js';

const lines: Record<string, unknown>[] = [];
const raw: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  const app = express();
  app.use(requestIds());
  app.use(accessLog({ logger: createLogger({ level: 'info', destination }), procedures: new Set(['wallet.send']) }));
  const v1 = Router();
  v1.get('/payments/:id', (_req, res) => {
    res.json({ ok: true });
  });
  app.use('/api/v1', v1);
  app.post('/api/user/login', (_req, res) => {
    res.status(401).json({ error: 'no' });
  });
  app.get('/healthz', (_req, res) => {
    res.send('ok');
  });
  app.get('/metrics', (_req, res) => {
    res.send('# metrics');
  });
  // tRPC is mounted middleware: no req.route.
  app.use('/trpc', (_req, res) => {
    res.json({ ok: true });
  });
  // The web app answers its client routes (`/user/:username`) with its page.
  app.use((req, res) => {
    if (req.method === 'GET' && req.path.startsWith('/user/')) res.send('<html></html>');
    else res.status(404).send('not found');
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((done) => server.close(done)));

/** The line of the request with this id, once it is written (after the answer). */
async function lineOf(requestId: string | null): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i += 1) {
    const line = lines.find((candidate) => candidate.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access-log line for ${requestId}`);
}

describe('access log', () => {
  it('logs the route pattern, status, duration and request id, never the path values or the query', async () => {
    const response = await fetch(`${base}/api/v1/payments/pay_secret123?to=ada%40example.com&token=abc`, {
      headers: { authorization: 'Bearer qk_live_shouldNotAppear', cookie: 'quern_session=cookievalue' },
    });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const line = await lineOf(requestId);
    expect(line).toMatchObject({ level: 'info', msg: 'request', part: 'http', method: 'GET', route: '/api/v1/payments/:id', status: 200 });
    expect(typeof line.durationMs).toBe('number');
    const text = raw.join('\n');
    for (const secret of ['pay_secret123', 'ada', 'token=abc', 'qk_live_', 'cookievalue']) expect(text).not.toContain(secret);
  });

  it('keeps a well-formed id the client sent in Request-Id or X-Request-Id', async () => {
    const viaNew = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'request-id': 'client-id-1' } });
    expect(viaNew.headers.get('request-id')).toBe('client-id-1');
    expect(await lineOf('client-id-1')).toMatchObject({ method: 'POST', route: '/api/user/login', status: 401 });
    const viaOld = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'x-request-id': 'proxy-id-2' } });
    expect(viaOld.headers.get('request-id')).toBe('proxy-id-2');
    expect(viaOld.headers.get('x-request-id')).toBe('proxy-id-2');
  });

  it('replaces an ill-formed id, so a client cannot forge log content', async () => {
    const response = await fetch(`${base}/api/user/login`, { method: 'POST', headers: { 'request-id': 'evil id "with" spaces' } });
    expect(response.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(raw.join('\n')).not.toContain('evil id');
  });

  it('logs a page as web, never its path: /user/alice names a user', async () => {
    const response = await fetch(`${base}/user/alice`);
    expect(response.status).toBe(200);
    const line = await lineOf(response.headers.get('request-id'));
    expect(line).toMatchObject({ route: 'web', status: 200 });
    expect(raw.join('\n')).not.toContain('alice');
  });

  it('does not repeat an unmatched path, which is whatever the client sent', async () => {
    const response = await fetch(`${base}/users/ada.lovelace@example.com`);
    expect(response.status).toBe(404);
    const line = await lineOf(response.headers.get('request-id'));
    expect(line).toMatchObject({ route: 'unmatched', status: 404 });
    expect(raw.join('\n')).not.toContain('lovelace');
  });

  it('logs /healthz polls and /metrics scrapes at debug only', async () => {
    for (const path of ['/healthz', '/metrics']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status).toBe(200);
      const requestId = response.headers.get('request-id');
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(lines.some((line) => line.requestId === requestId)).toBe(false);
    }
  });

  it('logs tRPC procedures as the metrics label them: known names, any other as unknown', async () => {
    const response = await fetch(`${base}/trpc/wallet.send,made.up?batch=1`);
    const line = await lineOf(response.headers.get('request-id'));
    expect(line).toMatchObject({ route: '/trpc/wallet.send,/trpc/unknown', status: 200 });
    expect(raw.join('\n')).not.toContain('made.up');
  });
});

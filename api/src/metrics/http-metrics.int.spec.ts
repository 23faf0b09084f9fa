// The HTTP metrics middleware on a real Express app over HTTP: labels come from the shared
// request classifier, and a request the client abandons before any answer is counted with
// status 0, not as the 200 Node presets on every response.
import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import express from 'express';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from '@quern/test-support/prometheus-text';
import { createHttpMetrics } from './http.js';

const registry = new Registry();
let server: Server;
let port = 0;
let reached: () => void = () => {};

beforeAll(async () => {
  const app = express();
  app.use(createHttpMetrics(registry, new Set(['wallet.send'])).middleware());
  // Never answers: the client gives up first.
  app.get('/api/slow/:id', () => reached());
  app.get('/api/fast/:id', (_req, res) => {
    res.json({ ok: true });
  });
  // The web app answers its client routes (`/user/:username`) with its page.
  app.use((req, res) => {
    if (req.method === 'GET' && !req.path.startsWith('/api')) res.send('<html></html>');
    else res.status(404).end();
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((done) => server.close(done)));

async function samples() {
  return parsePrometheusText(await registry.metrics());
}

describe('HTTP metrics', () => {
  it('count a request abandoned before any answer with status 0, not 200', async () => {
    const handled = new Promise<void>((done) => {
      reached = done;
    });
    const call = request({ host: '127.0.0.1', port, path: '/api/slow/abc' });
    call.on('error', () => {});
    call.end();
    await handled;
    call.destroy();
    for (let i = 0; i < 100; i += 1) {
      if (sampleValue(await samples(), 'quern_http_requests_total', { route: '/api/slow/:id', status: '0' }) === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const families = await samples();
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'GET', route: '/api/slow/:id', status: '0' })).toBe(1);
    expect(sampleValue(families, 'quern_http_requests_total', { route: '/api/slow/:id', status: '200' })).toBeUndefined();
  });

  it('label answered requests by pattern and pages as web, never by their path', async () => {
    expect((await fetch(`http://127.0.0.1:${port}/api/fast/xyz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/user/alice`)).status).toBe(200);
    const families = await samples();
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'GET', route: '/api/fast/:id', status: '200' })).toBe(1);
    expect(sampleValue(families, 'quern_http_requests_total', { method: 'GET', route: 'web', status: '200' })).toBe(1);
    expect(await registry.metrics()).not.toContain('alice');
  });
});

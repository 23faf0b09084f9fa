// Proves the event stream's life on a real HTTP server, log and Redis: a quiet stream sends
// heartbeat comments, new events arrive live as messages whose id is their cursor, the merchant's
// slot is given back when the client goes, and ending every stream (a shutdown) closes it cleanly.
import { randomBytes, randomUUID } from 'node:crypto';
import { get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock } from '@quern/core';
import { createWebhookEndpoint } from '@quern/core/webhooks';
import { merchantEventsProjection, type ProjectionRunner, startProjections } from '@quern/projections';
import { startPrivateRedis, type RedisServer } from '@quern/test-support/redis';
import { openTempStore, type TempStore } from '@quern/test-support/temp-store';
import express from 'express';
import { webhookSourceOf } from '@quern/workers';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test/quern.js';
import { createEventsFeedService } from './service.js';
import { createEventStreams } from './stream.js';

let temp: TempStore;
let redisServer: RedisServer;
let redis: Redis;
let runner: ProjectionRunner;
let server: Server;
let url: string;
let streams: ReturnType<typeof createEventStreams>;

beforeAll(async () => {
  temp = openTempStore('quern-event-stream-');
  redisServer = await startPrivateRedis();
  redis = new Redis(redisServer.url);
  runner = startProjections({ store: temp.store, redis, projections: [merchantEventsProjection] });
  const service = createEventsFeedService({
    store: temp.store,
    redis,
    clock: systemClock,
    mode: 'sandbox',
    publicUrl: 'http://localhost',
    webhookSourceOf,
  });
  streams = createEventStreams({
    page: service.page,
    livemode: false,
    streamsPerMerchantMax: 1,
    pollIntervalMs: 20,
    heartbeatIntervalMs: 100,
  });
  const app = express();
  app.get('/stream/:merchant', (req, res, next) => streams.stream(req.params.merchant, {}, res).catch(next));
  app.use((error: { code?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(error.code === 'RATE_LIMITED' ? 429 : 500).end();
  });
  await new Promise<void>((done) => {
    server = app.listen(0, '127.0.0.1', () => done());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await runner?.close();
  await new Promise((done) => server?.close(done));
  redis?.disconnect();
  await redisServer?.stop();
  await temp?.dispose();
});

function open(merchant: string): Promise<{ response: IncomingMessage; text: () => string; ended: Promise<void> }> {
  return new Promise((resolve) => {
    get(`${url}/stream/${merchant}`, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
      });
      const ended = new Promise<void>((done) => response.on('close', () => done()));
      resolve({ response, text: () => text, ended });
    });
  });
}

describe('the event stream', () => {
  it('sends heartbeats while quiet, new events live, gives the slot back when the client goes, and ends on shutdown', async () => {
    const quiet = await open('m1');
    expect(quiet.response.statusCode).toBe(200);
    expect(quiet.response.headers['cache-control']).toBe('no-cache, no-transform');
    await eventually(() => (quiet.text().split(': heartbeat\n\n').length > 2 ? true : undefined));
    // One stream per merchant here: a second is refused while the first is open.
    expect((await open('m1')).response.statusCode).toBe(429);

    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    const deps = { store: temp.store, clock: systemClock, newId: randomUUID };
    const endpoint = await createWebhookEndpoint(deps, { merchantUserId: 'm1', url: 'https://shop.example/h', events: [], secret });
    const message = await eventually(() => /id: (\d+)\nevent: webhook_endpoint\.created\ndata: (.+)\n\n/.exec(quiet.text()) ?? undefined);
    expect(JSON.parse(message[2] as string)).toMatchObject({
      cursor: message[1],
      type: 'webhook_endpoint.created',
      data: { id: endpoint.endpointId },
    });
    expect(quiet.text()).not.toContain(secret);

    quiet.response.destroy();
    const next = await eventually(async () => {
      const attempt = await open('m1');
      if (attempt.response.statusCode === 200) return attempt;
      attempt.response.destroy();
      return undefined;
    });
    streams.endAll();
    await next.ended;
    expect(next.response.complete).toBe(true);
  }, 30_000);
});

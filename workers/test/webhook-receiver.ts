/**
 * Test support: a merchant's webhook receiver on 127.0.0.1 that keeps every POST (its path, its
 * headers and its body exactly as sent) and answers 200, so specs check what the real sender put
 * on the wire. Deliveries to it need WEBHOOK_ALLOW_PRIVATE_NETWORKS (allowPrivateNetworks).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface WebhookReceiver {
  /** The receiver's URL for `path` (e.g. '/all'). */
  url(path: string): string;
  /** Every POST so far, in the order it arrived. */
  readonly received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** The most a test body may be: the delivery limit with room to spare; a longer one is cut off and answered 413. */
const BODY_BYTES_MAX = 128 * 1024;

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= BODY_BYTES_MAX) chunks.push(chunk);
    });
    req.on('end', () => {
      if (bytes > BODY_BYTES_MAX) return void res.writeHead(413).end();
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise((closed) => server.close(() => closed())),
  };
}

/**
 * Test helper: serves Express apps on 127.0.0.1 with an ephemeral port, for this folder's
 * tests (the local PayPal server, and the test shop page of the browser test).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ServedApp {
  origin: string;
  close(): Promise<void>;
}

export async function serve(app: Express): Promise<ServedApp> {
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * A stand-in for PayPal's OAuth endpoint (POST /v1/oauth2/token with HTTP Basic client
 * credentials), for tests of a live configuration: it answers a token to the one client id and
 * secret it was made with, and 401 `invalid_client` as PayPal does to any other. Everything else
 * answers 404: a test that reaches further has the wrong stub.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PayPalOAuthStub {
  url: string;
  /** How many token requests arrived (a check that the caller really asked). */
  tokenRequests: number;
  close(): Promise<void>;
}

export async function startPayPalOAuthStub(credentials: { clientId: string; clientSecret: string }): Promise<PayPalOAuthStub> {
  const expected = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
  const stub: PayPalOAuthStub = { url: '', tokenRequests: 0, close: async () => {} };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += String(chunk);
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/v1/oauth2/token') {
        res.writeHead(404).end(JSON.stringify({ name: 'RESOURCE_NOT_FOUND' }));
        return;
      }
      stub.tokenRequests += 1;
      if (req.headers.authorization !== expected || !/(^|&)grant_type=client_credentials(&|$)/.test(body)) {
        res.writeHead(401).end(JSON.stringify({ error: 'invalid_client', error_description: 'Client Authentication failed' }));
        return;
      }
      res
        .writeHead(200)
        .end(
          JSON.stringify({ scope: 'openid', access_token: 'A21-stub-token', token_type: 'Bearer', app_id: 'APP-STUB', expires_in: 32400 }),
        );
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = () => new Promise<void>((done) => server.close(() => done()));
  return stub;
}

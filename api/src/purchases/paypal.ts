/**
 * Where Quern's PayPal calls go (ADR 024): PayPal's sandbox or live hosts, or, with PAYPAL_ENV=local
 * (the default), the PayPal-compatible server Quern mounts at /paypal-local. The same client code
 * talks to all three. Locally, the server's own calls (create, capture, verify) and the local
 * server's webhook deliveries use the loopback address Quern actually listens on, which is known
 * only once it listens (PORT=0 in tests); browsers use PUBLIC_URL.
 */
import { type Router, Router as createRouter } from 'express';
import type { PayPalBrowserConfig } from '@quern/core/purchases';
import { type PayPalClient, createPayPalClient, payPalConfigFromEnv, paypalBaseUrl } from '@quern/adapters/paypal';
import { type PayerGuard, createLocalPayPal } from '@quern/adapters/paypal/local';
import { PURCHASE_ID_PATTERN, type PurchaseDeps, readPurchase } from '@quern/core/purchases';
import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import { readCookie } from '../http/cookies.js';
import { SESSION_COOKIE, type SessionStore } from '../identity/sessions.js';
import { limitWithRetryAfter } from '../identity/limits.js';

export const LOCAL_PAYPAL_PATH = '/paypal-local';
export const PAYPAL_WEBHOOK_PATH = '/api/paypal/webhooks';
/** PayPal's JavaScript SDK, which the Buy screen loads against sandbox and live. */
const PAYPAL_SDK_URL = 'https://www.paypal.com/sdk/js';

export interface OpenedPayPal {
  client: PayPalClient;
  browser: PayPalBrowserConfig;
  /** The local server's routes (mounted by the api), when PAYPAL_ENV=local. */
  localRoutes: Router[];
  /** The local server when this process serves it: its state (tests sign webhooks with its key) and where it is. */
  local?: { state: ReturnType<typeof createLocalPayPal>['state']; publicBaseUrl: string; webhookId: string };
  /** Sets who may approve an order on the local approval page (the api: the order's buyer, signed in). */
  guardPayers(guard: PayerGuard): void;
  /** Tells the local wiring the port Quern listens on. */
  listening(port: number): void;
  close(): Promise<void>;
}

/** `serveLocal`: this process runs the api, which serves the local server (other processes only call it). */
export function openPayPal(config: Config, dataDir: string, serveLocal: boolean): OpenedPayPal {
  const { PAYPAL_ENV, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID } = config;
  const paypal = payPalConfigFromEnv({ PAYPAL_ENV, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID });
  const credentials = { clientId: paypal.clientId, clientSecret: paypal.clientSecret, webhookId: paypal.webhookId };
  if (paypal.env !== 'local') {
    return {
      // PAYPAL_API_URL overrides PayPal's host (a proxy, a stub in tests); the mode rules vet it (ADR 049).
      client: createPayPalClient({ baseUrl: paypalBaseUrl(paypal.env, '', config.PAYPAL_API_URL), ...credentials }),
      browser: { clientId: paypal.clientId, sdkBaseUrl: PAYPAL_SDK_URL },
      // The stand-in is not the configured PayPal: nothing under its prefix answers (not even the web app's shell).
      localRoutes: [
        createRouter().use(LOCAL_PAYPAL_PATH, (_req, res) => {
          res.status(404).json({ name: 'RESOURCE_NOT_FOUND', message: 'The PayPal stand-in is not in use here.' });
        }),
      ],
      guardPayers: () => {},
      listening: () => {},
      close: async () => {},
    };
  }
  // Until Quern listens (workers-only processes never do), PUBLIC_URL is where the api serves it.
  let internalOrigin = config.publicUrl;
  // Until the api sets its guard, nobody may approve: the page is never open without it.
  let payerGuard: PayerGuard = async () => ({ allowed: false, reason: 'signedOut' });
  const local = serveLocal
    ? createLocalPayPal({
        dataDir,
        ...credentials,
        publicBaseUrl: `${config.publicUrl}${LOCAL_PAYPAL_PATH}`,
        webhookUrl: () => `${internalOrigin}${PAYPAL_WEBHOOK_PATH}`,
        // Reached only when PAYPAL_ENV=local (sandbox and live return above), said explicitly.
        controlsEnabled: paypal.env === 'local',
        payerGuard: (request, orderId) => payerGuard(request, orderId),
      })
    : undefined;
  let client: { origin: string; client: PayPalClient } | undefined;
  const current = (): PayPalClient => {
    if (client?.origin !== internalOrigin)
      client = { origin: internalOrigin, client: createPayPalClient({ baseUrl: `${internalOrigin}${LOCAL_PAYPAL_PATH}`, ...credentials }) };
    return client.client;
  };
  return {
    client: {
      createOrder: (input) => current().createOrder(input),
      getOrder: (id) => current().getOrder(id),
      captureOrder: (id, requestId) => current().captureOrder(id, requestId),
      refundCapture: (id, input) => current().refundCapture(id, input),
      verifyWebhook: (headers, rawBody) => current().verifyWebhook(headers, rawBody),
    },
    // Relative: the script, its popup and the page are then always one origin, whichever name the page was opened by.
    browser: { clientId: paypal.clientId, sdkBaseUrl: `${LOCAL_PAYPAL_PATH}/sdk/js` },
    localRoutes: local ? [createRouter().use(LOCAL_PAYPAL_PATH, local.router)] : [],
    ...(local
      ? { local: { state: local.state, publicBaseUrl: `${config.publicUrl}${LOCAL_PAYPAL_PATH}`, webhookId: paypal.webhookId ?? '' } }
      : {}),
    guardPayers: (guard) => {
      payerGuard = guard;
    },
    listening: (port) => {
      internalOrigin = `http://127.0.0.1:${port}`;
    },
    close: async () => local?.close(),
  };
}

/**
 * The local approval page acts as the buyer's PayPal account: only the Quern account that ordered
 * (its sign-in session sent with the page's requests) may approve or decline the order. An order
 * Quern did not price has no buyer here, so nobody may.
 */
export function buyerOnlyGuard(sessions: Pick<SessionStore, 'get'>, core: Pick<PurchaseDeps, 'store'>): PayerGuard {
  return async (request, orderId) => {
    const session = await sessions.get(readCookie(request.get('cookie'), SESSION_COOKIE));
    if (!session) return { allowed: false, reason: 'signedOut' };
    const purchase = PURCHASE_ID_PATTERN.test(orderId) ? await readPurchase(core, orderId) : undefined;
    return purchase?.buyerUserId === session.userId ? { allowed: true } : { allowed: false, reason: 'notBuyer' };
  };
}

/** At most `perMinute` webhook deliveries a minute from one client address (counted in Redis, across processes). */
export function webhookLimiter(redis: Redis, perMinute: number): (clientAddress: string) => Promise<void> {
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: 'rl:paypal-webhook-ip', points: perMinute, duration: 60 });
  return (clientAddress) => limitWithRetryAfter(limiter, clientAddress);
}

/**
 * A local server that speaks PayPal's REST protocol (OAuth token, Orders v2, Payments v2 captures
 * and refunds, webhook delivery and signature verification), as an Express 5 Router that Quern
 * mounts under a prefix of its own server. Quern's PayPal adapter talks to it with the same code
 * it uses against sandbox and live, so tests and offline runs exercise the real client path.
 * Scope and the ways it differs from PayPal: docs/decisions/024-paypal-sdk-and-local-server.md.
 *
 * The one route PayPal has no equivalent for, `POST /local/captures/{id}/reverse`, stands in for
 * a chargeback so the reversal path (and its webhook) can be tested. It, the approval page and its
 * approve and decline calls (which act as PayPal or as the payer) answer only when the server is
 * the configured PayPal (`controlsEnabled`); the approval is further limited by `payerGuard`.
 */
import { timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { log } from '../../runtime/logger.js';
import { payPalValueToCents } from '../money.js';
import { signatureBaseString, verifyWebhookSignature, WEBHOOK_AUTH_ALGO } from '../webhook-signature.js';
import { notFound, PayPalProtocolError, sendInvalidClient, sendPayPalError } from './errors.js';
import { LocalPayPalStore, type LocalPayPalState, type StoredResponse } from './state.js';
import { malformedJson, parseCreateOrderBody, parseRefundBody } from './validation.js';
import { WebhookSender } from './webhooks.js';
import { createLocalPayPalBrowserRoutes, type LocalPayPalBrowserState, type PayerGuard } from './browser/index.js';

/** The order store as the browser half sees it: the order's id, status and amount; approve; decline. */
function browserStateOf(state: LocalPayPalState): LocalPayPalBrowserState {
  return {
    async getOrder(id) {
      const order = state.getOrder(id);
      const amount = order?.purchase_units[0]?.amount as { currency_code: string; value: string } | undefined;
      return order && amount ? { id: order.id, status: order.status, amount } : undefined;
    },
    async approveOrder(id, payer) {
      state.approveOrder(id, payer);
    },
    async declineCard(id) {
      state.declineCard(id);
    },
  };
}

export type { LocalPayPalPayer, LocalPayPalState, PayPalOrderResource } from './state.js';
export { LocalPayPalStateError } from './state.js';
export type { WebhookEvent } from './webhooks.js';
export type { PayerCheck, PayerGuard } from './browser/index.js';

export interface LocalPayPalOptions {
  dataDir: string;
  clientId: string;
  clientSecret: string;
  /** Absolute URL of the prefix the router is mounted at, e.g. `http://127.0.0.1:8080/paypal-local`. */
  publicBaseUrl: string;
  /** Where events are delivered; a function when it is known only once Quern listens. */
  webhookUrl?: string | (() => string);
  /** The id the signature covers; Quern's PAYPAL_WEBHOOK_ID. Defaults to `WH-LOCAL`. */
  webhookId?: string;
  clock?: () => Date;
  /** Delays between webhook delivery attempts (default 1 s, 5 s, 30 s). */
  webhookRetryDelaysMs?: number[];
  /**
   * Whether this server is the PayPal the deployment is configured to use. Only then do the
   * routes that act as PayPal or as the payer (the approval page, approve, decline, the reversal)
   * answer; otherwise they answer 404 and change nothing. The protocol routes answer either way.
   */
  controlsEnabled: boolean;
  /** Who may approve an order on the approval page (the deployment's own sign-in), see PayerGuard. */
  payerGuard?: PayerGuard;
}

export interface LocalPayPal {
  router: Router;
  /** The server's state; `webhookKeyPair()` lets a test sign a delivery exactly as the server does. */
  state: LocalPayPalState & Pick<LocalPayPalStore, 'webhookKeyPair'>;
  close(): Promise<void>;
}

export const LOCAL_WEBHOOK_ID = 'WH-LOCAL';
export const LOCAL_CERT_PATH = '/v1/notifications/certs/local';

const APP_ID = 'APP-QUERNLOCAL';
const TOKEN_SCOPE =
  'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/applications/webhooks https://uri.paypal.com/services/payments/realtimepayment';

export function createLocalPayPal(options: LocalPayPalOptions): LocalPayPal {
  const clock = options.clock ?? (() => new Date());
  const publicBaseUrl = options.publicBaseUrl.replace(/\/+$/, '');
  const store = new LocalPayPalStore(options.dataDir, publicBaseUrl, clock);
  const keys = store.webhookKeyPair();
  const certUrl = `${publicBaseUrl}${LOCAL_CERT_PATH}`;
  const webhookId = options.webhookId ?? LOCAL_WEBHOOK_ID;
  const webhooks = options.webhookUrl
    ? new WebhookSender({
        webhookUrl: options.webhookUrl,
        webhookId,
        certUrl,
        publicBaseUrl,
        privateKeyPem: keys.privateKeyPem,
        clock,
        ...(options.webhookRetryDelaysMs ? { retryDelaysMs: options.webhookRetryDelaysMs } : {}),
      })
    : undefined;

  const router = Router();
  const send = (res: Response, result: StoredResponse) => res.status(result.status).json(result.body);

  // --- OAuth2 -----------------------------------------------------------------------------
  router.post('/v1/oauth2/token', express.urlencoded({ extended: false, limit: '16kb' }), (req, res) => {
    if (!hasClientCredentials(req.get('authorization'), options.clientId, options.clientSecret)) return sendInvalidClient(res);
    if (req.body?.grant_type !== 'client_credentials') {
      res.status(400).json({ error: 'unsupported_grant_type', error_description: 'Grant Type is NULL or not supported' });
      return;
    }
    const { token, expiresIn } = store.issueToken();
    res.json({
      scope: TOKEN_SCOPE,
      access_token: token,
      token_type: 'Bearer',
      app_id: APP_ID,
      expires_in: expiresIn,
      nonce: `${clock()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z')}${token.slice(-32)}`,
    });
  });

  // The signing certificate is public at PayPal too (the receiver fetches it from cert_url).
  router.get(LOCAL_CERT_PATH, (_req, res) => {
    res.type('application/x-pem-file').send(keys.publicKeyPem);
  });

  // The API routes need a bearer token from the endpoint above. Applied per route, not with
  // router.use, so paths this router does not know (the browser half's pages, mounted under the
  // same prefix) pass through untouched.
  const requireBearer = (req: Request, _res: Response, next: NextFunction) => {
    const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
    if (!match || !store.isTokenValid(match[1]!)) return next(new PayPalProtocolError('AUTHENTICATION_FAILURE'));
    next();
  };
  const jsonBody = express.json({ limit: '64kb' });

  // --- Orders v2 --------------------------------------------------------------------------
  router.post('/v2/checkout/orders', requireBearer, jsonBody, (req, res) => {
    const result = store.idempotent('orders:create', req.get('paypal-request-id'), req.body, () => {
      const units = parseCreateOrderBody(req.body);
      return { status: 201, body: store.createOrder(units) };
    });
    send(res, withPrefer(req, result));
  });

  router.get('/v2/checkout/orders/:id', requireBearer, jsonBody, (req, res) => {
    const order = store.getOrder(idParam(req));
    if (!order) throw orderNotFound();
    res.json(order);
  });

  router.post('/v2/checkout/orders/:id/capture', requireBearer, jsonBody, (req, res) => {
    const id = idParam(req);
    let captured: Record<string, unknown> | undefined;
    const result = store.idempotent(`orders:capture:${id}`, req.get('paypal-request-id'), req.body, () => {
      const { order, capture } = store.captureOrder(id);
      captured = capture;
      return { status: 201, body: order };
    });
    send(res, withPrefer(req, result));
    if (captured) {
      const amount = captured.amount as { value: string; currency_code: string };
      webhooks?.send('PAYMENT.CAPTURE.COMPLETED', 'capture', `Payment completed for $ ${amount.value} ${amount.currency_code}`, captured);
    }
  });

  // --- Payments v2 ------------------------------------------------------------------------
  router.get('/v2/payments/captures/:id', requireBearer, jsonBody, (req, res) => {
    const capture = store.getCapture(idParam(req));
    if (!capture)
      throw notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
    res.json(capture);
  });

  router.post('/v2/payments/captures/:id/refund', requireBearer, jsonBody, (req, res) => {
    const id = idParam(req);
    let refunded: Record<string, unknown> | undefined;
    const result = store.idempotent(`captures:refund:${id}`, req.get('paypal-request-id'), req.body, () => {
      const amount = parseRefundBody(req.body);
      const { refund } = store.refundCapture(id, amount && payPalValueToCents(amount.value));
      refunded = refund;
      return { status: 201, body: refund };
    });
    send(res, result);
    if (refunded) {
      const amount = refunded.amount as { value: string; currency_code: string };
      webhooks?.send(
        'PAYMENT.CAPTURE.REFUNDED',
        'refund',
        `A $ ${amount.value} ${amount.currency_code} capture payment was refunded`,
        refunded,
      );
    }
  });

  router.get('/v2/payments/refunds/:id', requireBearer, jsonBody, (req, res) => {
    const refund = store.getRefund(idParam(req));
    if (!refund) throw notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
    res.json(refund);
  });

  // --- Webhook verification ---------------------------------------------------------------
  router.post('/v1/notifications/verify-webhook-signature', requireBearer, jsonBody, (req, res) => {
    const body = req.body as Record<string, unknown> | undefined;
    const required = [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
      'webhook_event',
    ] as const;
    for (const field of required) {
      if (body?.[field] === undefined) {
        throw new PayPalProtocolError('INVALID_REQUEST', [
          { field, location: 'body', issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required field / parameter is missing.' },
        ]);
      }
    }
    const b = body as Record<(typeof required)[number], unknown>;
    // The rule (ADR 024): CRC-32 over JSON.stringify(webhook_event), i.e. the event as parsed
    // from the delivered body. The local sender writes JSON.stringify(event), so a receiver
    // passing JSON.parse(rawBody) reproduces the signed bytes exactly.
    const verified =
      b.auth_algo === WEBHOOK_AUTH_ALGO &&
      b.cert_url === certUrl &&
      b.webhook_id === webhookId &&
      verifyWebhookSignature(
        signatureBaseString({
          transmissionId: String(b.transmission_id),
          transmissionTime: String(b.transmission_time),
          webhookId: String(b.webhook_id),
          rawBody: JSON.stringify(b.webhook_event),
        }),
        String(b.transmission_sig),
        keys.publicKeyPem,
      );
    res.json({ verification_status: verified ? 'SUCCESS' : 'FAILURE' });
  });

  // --- Local control (no PayPal equivalent: a chargeback has no API) ----------------------
  router.post('/local/captures/:id/reverse', (req, res) => {
    if (!options.controlsEnabled) throw notFound('RESOURCE_NOT_FOUND', 'The specified resource does not exist.');
    const capture = store.reverseCapture(idParam(req));
    res.json(capture);
    const amount = capture.amount as { value: string; currency_code: string };
    webhooks?.send(
      'PAYMENT.CAPTURE.REVERSED',
      'capture',
      `A $ ${amount.value} ${amount.currency_code} capture payment was reversed`,
      capture,
    );
  });

  // --- What the browser sees: the JS SDK script and the approval popup (browser/) -------------
  router.use(
    createLocalPayPalBrowserRoutes(browserStateOf(store), {
      controlsEnabled: options.controlsEnabled,
      ...(options.payerGuard ? { payerGuard: options.payerGuard } : {}),
    }),
  );

  router.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    if (error instanceof PayPalProtocolError) return sendPayPalError(res, error);
    if (isBodyParserError(error)) return sendPayPalError(res, malformedJson());
    log.error({ part: 'paypal-local', err: error }, 'unexpected error');
    sendPayPalError(res, new PayPalProtocolError('INTERNAL_SERVER_ERROR'));
  });

  return {
    router,
    state: store,
    async close() {
      await webhooks?.close();
      store.close();
    },
  };
}

function orderNotFound(): PayPalProtocolError {
  return notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
}

/** `Prefer: return=minimal` gets id, status and links only, as at PayPal; anything else the full resource. */
function withPrefer(req: Request, result: StoredResponse): StoredResponse {
  if (!/return=minimal/i.test(req.get('prefer') ?? '')) return result;
  const body = result.body as Record<string, unknown>;
  return { status: result.status, body: { id: body.id, status: body.status, links: body.links } };
}

function hasClientCredentials(header: string | undefined, clientId: string, clientSecret: string): boolean {
  const match = /^Basic (\S+)$/.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!, 'base64');
  const expected = Buffer.from(`${clientId}:${clientSecret}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isBodyParserError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'type' in error && (error as { type: unknown }).type === 'entity.parse.failed';
}

function idParam(req: Request): string {
  return String(req.params.id);
}

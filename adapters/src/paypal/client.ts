/**
 * Quern's PayPal adapter: create, read and capture Orders v2 orders, refund captures, and verify
 * webhooks, through PayPal's `@paypal/checkout-server-sdk` (ADR 024: it is the PayPal SDK that
 * accepts a custom base URL, so the same code talks to the local server, sandbox and live).
 *
 * Money is integer US cents in and out; PayPal's "10.00" strings are converted exactly
 * (money.ts). Every failure is a `PayPalError`: PayPal's HTTP status, error name, first issue and
 * debug id, or status 0 / NETWORK_ERROR when PayPal could not be reached.
 */
import paypal from '@paypal/checkout-server-sdk';
import { centsToPayPalValue, payPalValueToCents } from './money.js';

export type PayPalEnv = 'local' | 'sandbox' | 'live';

/**
 * PayPal's REST hosts; `local` is the URL where Quern mounted the local server's router.
 * `override` (PAYPAL_API_URL: a proxy, a stub in tests; the mode rules vet it, ADR 049) wins.
 * Without trailing slashes, as request paths are appended to it.
 */
export function paypalBaseUrl(env: PayPalEnv, localBaseUrl: string, override?: string): string {
  return (override ?? payPalHost(env, localBaseUrl)).replace(/\/+$/, '');
}

function payPalHost(env: PayPalEnv, localBaseUrl: string): string {
  switch (env) {
    case 'local':
      return localBaseUrl;
    case 'sandbox':
      return 'https://api-m.sandbox.paypal.com';
    case 'live':
      return 'https://api-m.paypal.com';
  }
}

export function parsePayPalEnv(value: string | undefined): PayPalEnv {
  const env = value === undefined || value === '' ? 'local' : value;
  if (env === 'local' || env === 'sandbox' || env === 'live') return env;
  throw new Error(`PAYPAL_ENV must be local, sandbox or live, got ${JSON.stringify(value)}`);
}

/** PAYPAL_ENV, PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_WEBHOOK_ID; local has working defaults. */
export interface PayPalConfig {
  env: PayPalEnv;
  clientId: string;
  clientSecret: string;
  webhookId: string | undefined;
}

export const LOCAL_PAYPAL_CREDENTIALS = { clientId: 'quern-local-client', clientSecret: 'quern-local-secret', webhookId: 'WH-LOCAL' };

export function payPalConfigFromEnv(vars: Record<string, string | undefined>): PayPalConfig {
  const env = parsePayPalEnv(vars.PAYPAL_ENV);
  if (env === 'local') {
    return {
      env,
      clientId: vars.PAYPAL_CLIENT_ID || LOCAL_PAYPAL_CREDENTIALS.clientId,
      clientSecret: vars.PAYPAL_CLIENT_SECRET || LOCAL_PAYPAL_CREDENTIALS.clientSecret,
      webhookId: vars.PAYPAL_WEBHOOK_ID || LOCAL_PAYPAL_CREDENTIALS.webhookId,
    };
  }
  const clientId = vars.PAYPAL_CLIENT_ID;
  const clientSecret = vars.PAYPAL_CLIENT_SECRET;
  if (!clientId || !clientSecret) throw new Error(`PAYPAL_ENV=${env} needs PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET`);
  return { env, clientId, clientSecret, webhookId: vars.PAYPAL_WEBHOOK_ID || undefined };
}

export type PayPalOrderStatus = 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';

export interface PayPalCapture {
  id: string;
  /** COMPLETED, PENDING, DECLINED, PARTIALLY_REFUNDED, REFUNDED, REVERSED, FAILED */
  status: string;
  usdCents: number;
}

export interface PayPalOrder {
  id: string;
  status: PayPalOrderStatus;
  usdCents: number;
  /** Quern's reference, sent as the purchase unit's custom_id. */
  reference: string | undefined;
  /** Where the buyer approves (absent once captured). */
  approveUrl: string | undefined;
  payerEmail: string | undefined;
  capture: PayPalCapture | undefined;
}

export interface PayPalRefund {
  id: string;
  status: string;
  usdCents: number;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface PayPalClient {
  createOrder(input: { usdCents: number; reference: string; requestId: string; description?: string }): Promise<PayPalOrder>;
  getOrder(id: string): Promise<PayPalOrder>;
  /** Idempotent per requestId: a retry returns the first capture. */
  captureOrder(id: string, requestId: string): Promise<PayPalOrder>;
  /** The whole remainder when usdCents is omitted. */
  refundCapture(captureId: string, input: { requestId: string; usdCents?: number }): Promise<PayPalRefund>;
  /**
   * Asks PayPal whether a delivered webhook is genuine. `rawBody` is the request body exactly as
   * received; it is parsed here and sent as webhook_event (ADR 024 explains why not re-encoded).
   */
  verifyWebhook(headers: WebhookHeaders, rawBody: string | Buffer): Promise<boolean>;
}

export class PayPalError extends Error {
  constructor(
    /** HTTP status, or 0 when PayPal did not answer. */
    readonly status: number,
    /** PayPal's error name: INVALID_REQUEST, UNPROCESSABLE_ENTITY, invalid_client, NETWORK_ERROR… */
    override readonly name: string,
    /** The first detail's issue: ORDER_NOT_APPROVED, INSTRUMENT_DECLINED… */
    readonly issue: string | undefined,
    readonly description: string,
    readonly debugId: string | undefined,
  ) {
    super(`PayPal ${status} ${name}${issue ? ` ${issue}` : ''}: ${description}`);
  }
}

export interface PayPalClientOptions {
  /** paypalBaseUrl(env, localBaseUrl, PAYPAL_API_URL) */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Needed by verifyWebhook only. */
  webhookId?: string;
}

export function createPayPalClient(options: PayPalClientOptions): PayPalClient {
  const baseUrl = new URL(options.baseUrl);
  const environment = new paypal.core.PayPalEnvironment(options.clientId, options.clientSecret, baseUrl.origin, baseUrl.origin);
  const http = new paypal.core.PayPalHttpClient(environment);
  // The SDK keeps only the host and port of the base URL and sends each request's own path; the
  // local server lives under a prefix of Quern's server, so the prefix goes onto every path
  // (the SDK copies each request before injectors run, so retries are not prefixed twice).
  const basePath = baseUrl.pathname.replace(/\/+$/, '');
  if (basePath) {
    http.addInjector((request) => {
      request.path = `${basePath}${request.path}`;
    });
  }

  const execute = async (request: unknown): Promise<Record<string, unknown>> => {
    try {
      const response = await http.execute(request as Parameters<typeof http.execute>[0]);
      return (response.result ?? {}) as Record<string, unknown>;
    } catch (error) {
      throw toPayPalError(error);
    }
  };

  return {
    async createOrder({ usdCents, reference, requestId, description }) {
      if (!Number.isSafeInteger(usdCents) || usdCents <= 0) throw new RangeError(`order amount must be positive cents, got ${usdCents}`);
      const request = new paypal.orders.OrdersCreateRequest();
      // This SDK's create request predates PayPal-Request-Id on orders (it has no setter), but
      // the API honours the header: without it a retried create makes a second order.
      Object.assign(request.headers, { 'PayPal-Request-Id': requestId });
      request.prefer('return=representation');
      request.requestBody({
        intent: 'CAPTURE',
        purchase_units: [
          {
            custom_id: reference,
            ...(description ? { description } : {}),
            amount: { currency_code: 'USD', value: centsToPayPalValue(usdCents) },
          },
        ],
      } as never);
      return toOrder(await execute(request));
    },

    async getOrder(id) {
      return toOrder(await execute(new paypal.orders.OrdersGetRequest(id)));
    },

    async captureOrder(id, requestId) {
      const request = new paypal.orders.OrdersCaptureRequest(id);
      request.payPalRequestId(requestId);
      request.prefer('return=representation');
      request.requestBody({} as never);
      return toOrder(await execute(request));
    },

    async refundCapture(captureId, { requestId, usdCents }) {
      const request = new paypal.payments.CapturesRefundRequest(captureId);
      request.payPalRequestId(requestId);
      request.prefer('return=representation');
      request.requestBody(
        (usdCents === undefined ? {} : { amount: { currency_code: 'USD', value: centsToPayPalValue(usdCents) } }) as never,
      );
      const refund = await execute(request);
      return { id: String(refund.id), status: String(refund.status), usdCents: usdCentsOf(refund.amount) };
    },

    async verifyWebhook(headers, rawBody) {
      if (!options.webhookId) throw new Error('verifyWebhook needs the webhook id (PAYPAL_WEBHOOK_ID)');
      const header = (name: string) => headerValue(headers, name);
      const fields = {
        auth_algo: header('paypal-auth-algo'),
        cert_url: header('paypal-cert-url'),
        transmission_id: header('paypal-transmission-id'),
        transmission_sig: header('paypal-transmission-sig'),
        transmission_time: header('paypal-transmission-time'),
      };
      if (Object.values(fields).some((value) => value === undefined)) return false;
      let event: unknown;
      try {
        event = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
      } catch {
        return false;
      }
      // The SDK has no request class for this endpoint; it takes any { path, verb, headers, body }.
      const result = await execute({
        path: '/v1/notifications/verify-webhook-signature',
        verb: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: { ...fields, webhook_id: options.webhookId, webhook_event: event },
      });
      return result.verification_status === 'SUCCESS';
    },
  };
}

function headerValue(headers: WebhookHeaders, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function usdCentsOf(amount: unknown): number {
  const { currency_code: currency, value } = (amount ?? {}) as { currency_code?: unknown; value?: unknown };
  if (currency !== 'USD' || typeof value !== 'string')
    throw new PayPalError(0, 'UNEXPECTED_RESPONSE', undefined, 'amount is not USD', undefined);
  return payPalValueToCents(value);
}

function toOrder(order: Record<string, unknown>): PayPalOrder {
  const unit = ((order.purchase_units as Array<Record<string, unknown>> | undefined) ?? [])[0] ?? {};
  const captures = ((unit.payments as { captures?: Array<Record<string, unknown>> } | undefined)?.captures ?? [])[0];
  const links = (order.links as Array<{ rel: string; href: string }> | undefined) ?? [];
  const payer = order.payer as { email_address?: string } | undefined;
  return {
    id: String(order.id),
    status: order.status as PayPalOrderStatus,
    usdCents: usdCentsOf(unit.amount),
    reference: typeof unit.custom_id === 'string' ? unit.custom_id : undefined,
    approveUrl: links.find((link) => link.rel === 'approve' || link.rel === 'payer-action')?.href,
    payerEmail: payer?.email_address,
    capture: captures ? { id: String(captures.id), status: String(captures.status), usdCents: usdCentsOf(captures.amount) } : undefined,
  };
}

/** The SDK rejects with { statusCode, message: <response body> } for HTTP errors, or a plain Error. */
function toPayPalError(error: unknown): PayPalError {
  if (error instanceof PayPalError) return error;
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  const text = (error as { message?: unknown })?.message;
  if (typeof statusCode !== 'number') {
    return new PayPalError(0, 'NETWORK_ERROR', undefined, typeof text === 'string' ? text : String(error), undefined);
  }
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(String(text)) as Record<string, unknown>;
  } catch {
    // Not JSON (a proxy's HTML page): keep the status, describe with the text.
  }
  if (typeof body.error === 'string') {
    // OAuth's shape: { error, error_description }.
    return new PayPalError(statusCode, body.error, undefined, String(body.error_description ?? ''), undefined);
  }
  const detail = ((body.details as Array<{ issue?: string; description?: string }> | undefined) ?? [])[0];
  return new PayPalError(
    statusCode,
    typeof body.name === 'string' ? body.name : `HTTP_${statusCode}`,
    detail?.issue,
    detail?.description ?? (typeof body.message === 'string' ? body.message : String(text ?? '')),
    typeof body.debug_id === 'string' ? body.debug_id : undefined,
  );
}
export { centsToPayPalValue, payPalValueToCents } from './money.js';

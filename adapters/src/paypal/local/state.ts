/**
 * The local PayPal server's state, in `<dataDir>/paypal-local.sqlite`, so a Quern restart in the
 * middle of a checkout finds its orders, captures, tokens and idempotency records again.
 *
 * ## The interface the browser half uses (`LocalPayPalState`)
 * The JS SDK script and the approval popup (built separately) only need three calls:
 * - `getOrder(id)`: the order exactly as `GET /v2/checkout/orders/{id}` renders it (amount,
 *   description, status, payer, links), or `undefined` when there is no such order.
 * - `approveOrder(id, { name, email })`: the buyer pressed "Pay". The order becomes APPROVED with
 *   that payer (`name` is split at its first space into given name and surname). Approving an
 *   APPROVED order again replaces the payer. Throws `LocalPayPalStateError` ('notFound' or
 *   'notApprovable' for a COMPLETED order).
 * - `declineCard(id)`: the buyer pressed "Decline card". To the page this looks like an approval
 *   (onApprove runs and the merchant captures), but the next capture fails with 422
 *   INSTRUMENT_DECLINED, once, and the order goes back to CREATED, so the page can restart and
 *   the buyer approve again (PayPal's documented restart flow). Same errors as approveOrder.
 * All three are synchronous and take effect immediately for the REST endpoints.
 *
 * The rest of the class (tokens, create, capture, refunds, reversal, idempotency, the webhook
 * key) is used by the router only.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { centsToPayPalValue, payPalValueToCents } from '../money.js';
import { notFound, unprocessable } from './errors.js';
import { accessToken, payPalResourceId } from './ids.js';

export interface LocalPayPalPayer {
  name: string;
  email: string;
}

export interface PayPalAmount {
  currency_code: string;
  value: string;
}

/** A purchase unit as the buyer's merchant sent it (validated by the router). */
export interface PurchaseUnitInput {
  reference_id?: string;
  custom_id?: string;
  invoice_id?: string;
  description?: string;
  amount: PayPalAmount & { breakdown?: unknown };
  items?: unknown[];
}

export type LocalOrderStatus = 'CREATED' | 'APPROVED' | 'COMPLETED';

/** An order rendered as PayPal's Orders v2 API renders it. */
export interface PayPalOrderResource {
  id: string;
  intent: 'CAPTURE';
  status: LocalOrderStatus;
  purchase_units: Array<Record<string, unknown>>;
  payer?: Record<string, unknown>;
  create_time: string;
  update_time?: string;
  links: Array<{ href: string; rel: string; method: string }>;
}

export interface LocalPayPalState {
  getOrder(id: string): PayPalOrderResource | undefined;
  approveOrder(id: string, payer: LocalPayPalPayer): PayPalOrderResource;
  declineCard(id: string): PayPalOrderResource;
}

export class LocalPayPalStateError extends Error {
  constructor(
    readonly code: 'notFound' | 'notApprovable',
    message: string,
  ) {
    super(message);
    this.name = 'LocalPayPalStateError';
  }
}

interface StoredPayer {
  payer_id: string;
  given_name: string;
  surname: string;
  email_address: string;
}

interface StoredOrder {
  id: string;
  status: LocalOrderStatus;
  purchase_units: PurchaseUnitInput[];
  create_time: string;
  update_time?: string;
  payer?: StoredPayer;
  decline_next_capture: boolean;
  capture_id?: string;
}

export type CaptureStatus = 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED' | 'REVERSED';

interface StoredCapture {
  id: string;
  order_id: string;
  status: CaptureStatus;
  amount: PayPalAmount;
  custom_id?: string;
  invoice_id?: string;
  refunded_cents: number;
  create_time: string;
  update_time: string;
}

interface StoredRefund {
  id: string;
  capture_id: string;
  amount: PayPalAmount;
  create_time: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

/** PayPal's timestamps have whole seconds: "2024-05-01T10:00:00Z". */
export function payPalTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const TOKEN_LIFETIME_SECONDS = 32_400; // what PayPal grants (9 hours)

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS tokens (token TEXT PRIMARY KEY, expires_at_ms INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, doc TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS captures (id TEXT PRIMARY KEY, order_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS refunds (id TEXT PRIMARY KEY, capture_id TEXT NOT NULL, doc TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS idempotency (
    scope TEXT NOT NULL, request_id TEXT NOT NULL, body_hash TEXT NOT NULL,
    status INTEGER NOT NULL, response TEXT NOT NULL, PRIMARY KEY (scope, request_id));
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export class LocalPayPalStore implements LocalPayPalState {
  private readonly db: Database.Database;

  constructor(
    dataDir: string,
    private readonly publicBaseUrl: string,
    private readonly clock: () => Date,
  ) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new Database(join(dataDir, 'paypal-local.sqlite'));
    // WAL + FULL: the browser half and the REST side share this file, and an acknowledged
    // capture must survive a crash just as it would at PayPal.
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(SCHEMA);
  }

  close(): void {
    this.db.close();
  }

  // --- tokens ---------------------------------------------------------------------------

  issueToken(): { token: string; expiresIn: number } {
    const token = accessToken();
    this.db
      .prepare('INSERT INTO tokens (token, expires_at_ms) VALUES (?, ?)')
      .run(token, this.clock().getTime() + TOKEN_LIFETIME_SECONDS * 1000);
    return { token, expiresIn: TOKEN_LIFETIME_SECONDS };
  }

  isTokenValid(token: string): boolean {
    const row = this.db.prepare('SELECT expires_at_ms FROM tokens WHERE token = ?').get(token) as { expires_at_ms: number } | undefined;
    return row !== undefined && row.expires_at_ms > this.clock().getTime();
  }

  // --- idempotency (PayPal-Request-Id) --------------------------------------------------

  /**
   * Runs `operation` once per (scope, requestId). A repeat with the same body gets the stored
   * response; a repeat with another body is refused as PayPal refuses it. Only successes are
   * stored, so a request that failed (declined card, not yet approved) can be retried with the
   * same id once the cause is gone. Synchronous from lookup to store, so requests cannot interleave.
   */
  idempotent(scope: string, requestId: string | undefined, body: unknown, operation: () => StoredResponse): StoredResponse {
    if (!requestId) return operation();
    const bodyHash = createHash('sha256')
      .update(JSON.stringify(body ?? null))
      .digest('hex');
    const row = this.db
      .prepare('SELECT body_hash, status, response FROM idempotency WHERE scope = ? AND request_id = ?')
      .get(scope, requestId) as { body_hash: string; status: number; response: string } | undefined;
    if (row) {
      if (row.body_hash !== bodyHash) {
        throw unprocessable('PAYPAL_REQUEST_ID_PREVIOUSLY_USED', 'The PayPal-Request-Id has already been used for another request.');
      }
      return { status: row.status, body: JSON.parse(row.response) };
    }
    const result = operation();
    if (result.status >= 200 && result.status < 300) {
      this.db
        .prepare('INSERT INTO idempotency (scope, request_id, body_hash, status, response) VALUES (?, ?, ?, ?, ?)')
        .run(scope, requestId, bodyHash, result.status, JSON.stringify(result.body));
    }
    return result;
  }

  // --- orders ----------------------------------------------------------------------------

  createOrder(purchaseUnits: PurchaseUnitInput[]): PayPalOrderResource {
    const order: StoredOrder = {
      id: payPalResourceId(),
      status: 'CREATED',
      purchase_units: purchaseUnits.map((unit) => ({ ...unit, reference_id: unit.reference_id ?? 'default' })),
      create_time: payPalTime(this.clock()),
      decline_next_capture: false,
    };
    this.db.prepare('INSERT INTO orders (id, doc) VALUES (?, ?)').run(order.id, JSON.stringify(order));
    return this.renderOrder(order);
  }

  getOrder(id: string): PayPalOrderResource | undefined {
    const order = this.loadOrder(id);
    return order && this.renderOrder(order);
  }

  approveOrder(id: string, payer: LocalPayPalPayer): PayPalOrderResource {
    const order = this.approvableOrder(id);
    const [givenName, ...rest] = payer.name.trim().split(/\s+/);
    order.payer = {
      payer_id: order.payer?.payer_id ?? payPalResourceId().slice(0, 13),
      given_name: givenName ?? '',
      surname: rest.join(' '),
      email_address: payer.email,
    };
    order.status = 'APPROVED';
    order.decline_next_capture = false;
    order.update_time = payPalTime(this.clock());
    this.saveOrder(order);
    return this.renderOrder(order);
  }

  declineCard(id: string): PayPalOrderResource {
    const order = this.approvableOrder(id);
    order.status = 'APPROVED';
    order.decline_next_capture = true;
    order.update_time = payPalTime(this.clock());
    this.saveOrder(order);
    return this.renderOrder(order);
  }

  /** Captures the whole order amount. Throws PayPal's 404/422 errors. */
  captureOrder(id: string): { order: PayPalOrderResource; capture: Record<string, unknown> } {
    const result = this.db.transaction(() => {
      const order = this.loadOrder(id);
      if (!order)
        throw notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
      if (order.status === 'COMPLETED') {
        throw unprocessable('ORDER_ALREADY_CAPTURED', "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.");
      }
      if (order.decline_next_capture) {
        // The reset must be committed, and better-sqlite3 rolls back a transaction that throws:
        // so it returns a marker and the error is raised after the commit.
        order.decline_next_capture = false;
        order.status = 'CREATED';
        order.update_time = payPalTime(this.clock());
        this.saveOrder(order);
        return 'declined' as const;
      }
      if (order.status !== 'APPROVED') {
        throw unprocessable(
          'ORDER_NOT_APPROVED',
          'Payer has not yet approved the Order for payment. Please redirect the payer to the approval URL.',
        );
      }
      const unit = order.purchase_units[0]!;
      const now = payPalTime(this.clock());
      const capture: StoredCapture = {
        id: payPalResourceId(),
        order_id: order.id,
        status: 'COMPLETED',
        amount: { currency_code: unit.amount.currency_code, value: unit.amount.value },
        refunded_cents: 0,
        create_time: now,
        update_time: now,
        ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
        ...(unit.invoice_id ? { invoice_id: unit.invoice_id } : {}),
      };
      order.status = 'COMPLETED';
      order.capture_id = capture.id;
      order.update_time = now;
      this.saveOrder(order);
      this.db.prepare('INSERT INTO captures (id, order_id, doc) VALUES (?, ?, ?)').run(capture.id, order.id, JSON.stringify(capture));
      return { order: this.renderOrder(order), capture: this.renderCapture(capture) };
    })();
    if (result === 'declined') {
      throw unprocessable(
        'INSTRUMENT_DECLINED',
        "The instrument presented was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    return result;
  }

  // --- captures and refunds --------------------------------------------------------------

  getCapture(id: string): Record<string, unknown> | undefined {
    const capture = this.loadCapture(id);
    return capture && this.renderCapture(capture);
  }

  /** Refunds `cents` (the whole remainder when undefined). */
  refundCapture(captureId: string, cents: number | undefined): { refund: Record<string, unknown>; capture: Record<string, unknown> } {
    return this.db.transaction(() => {
      const capture = this.loadCapture(captureId);
      if (!capture)
        throw notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
      if (capture.status === 'REFUNDED') throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
      if (capture.status === 'REVERSED') {
        throw unprocessable(
          'REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK',
          'Refunds not allowed on this capture due to a chargeback on the card or bank.',
        );
      }
      const remaining = payPalValueToCents(capture.amount.value) - capture.refunded_cents;
      const amountCents = cents ?? remaining;
      if (amountCents > remaining) {
        throw unprocessable(
          'REFUND_AMOUNT_EXCEEDED',
          'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
          '/amount/value',
        );
      }
      const now = payPalTime(this.clock());
      const refund: StoredRefund = {
        id: payPalResourceId(),
        capture_id: capture.id,
        amount: { currency_code: capture.amount.currency_code, value: centsToPayPalValue(amountCents) },
        create_time: now,
      };
      capture.refunded_cents += amountCents;
      capture.status = capture.refunded_cents === payPalValueToCents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
      capture.update_time = now;
      this.saveCapture(capture);
      this.db.prepare('INSERT INTO refunds (id, capture_id, doc) VALUES (?, ?, ?)').run(refund.id, capture.id, JSON.stringify(refund));
      return { refund: this.renderRefund(refund), capture: this.renderCapture(capture) };
    })();
  }

  getRefund(id: string): Record<string, unknown> | undefined {
    const row = this.db.prepare('SELECT doc FROM refunds WHERE id = ?').get(id) as { doc: string } | undefined;
    return row && this.renderRefund(JSON.parse(row.doc) as StoredRefund);
  }

  /** A chargeback (no PayPal API exists for it): the capture becomes REVERSED. */
  reverseCapture(captureId: string): Record<string, unknown> {
    const capture = this.loadCapture(captureId);
    if (!capture)
      throw notFound('INVALID_RESOURCE_ID', 'Specified resource ID does not exist. Please check the resource ID and try again.');
    if (capture.status === 'REVERSED') throw unprocessable('CAPTURE_ALREADY_REVERSED', 'The capture has already been reversed.');
    capture.status = 'REVERSED';
    capture.update_time = payPalTime(this.clock());
    this.saveCapture(capture);
    return this.renderCapture(capture);
  }

  // --- webhook signing key ---------------------------------------------------------------

  /** Generated on first use and kept, so certificates fetched earlier stay valid after a restart. */
  webhookKeyPair(): { privateKeyPem: string; publicKeyPem: string } {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'webhook_key_pair'").get() as { value: string } | undefined;
    if (row) return JSON.parse(row.value) as { privateKeyPem: string; publicKeyPem: string };
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pair = {
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    };
    this.db.prepare("INSERT INTO meta (key, value) VALUES ('webhook_key_pair', ?)").run(JSON.stringify(pair));
    return pair;
  }

  // --- storage and rendering -------------------------------------------------------------

  private approvableOrder(id: string): StoredOrder {
    const order = this.loadOrder(id);
    if (!order) throw new LocalPayPalStateError('notFound', `no order ${id}`);
    if (order.status === 'COMPLETED') throw new LocalPayPalStateError('notApprovable', `order ${id} is already captured`);
    return order;
  }

  private loadOrder(id: string): StoredOrder | undefined {
    const row = this.db.prepare('SELECT doc FROM orders WHERE id = ?').get(id) as { doc: string } | undefined;
    return row && (JSON.parse(row.doc) as StoredOrder);
  }

  private saveOrder(order: StoredOrder): void {
    this.db.prepare('UPDATE orders SET doc = ? WHERE id = ?').run(JSON.stringify(order), order.id);
  }

  private loadCapture(id: string): StoredCapture | undefined {
    const row = this.db.prepare('SELECT doc FROM captures WHERE id = ?').get(id) as { doc: string } | undefined;
    return row && (JSON.parse(row.doc) as StoredCapture);
  }

  private saveCapture(capture: StoredCapture): void {
    this.db.prepare('UPDATE captures SET doc = ? WHERE id = ?').run(JSON.stringify(capture), capture.id);
  }

  private link(path: string, rel: string, method = 'GET') {
    return { href: `${this.publicBaseUrl}${path}`, rel, method };
  }

  private renderOrder(order: StoredOrder): PayPalOrderResource {
    const capture = order.capture_id ? this.loadCapture(order.capture_id) : undefined;
    const units = order.purchase_units.map((unit, index) => {
      const rendered: Record<string, unknown> = { ...unit, payee: LOCAL_PAYEE };
      if (index === 0 && capture) rendered.payments = { captures: [this.renderCapture(capture, false)] };
      return rendered;
    });
    const self = `/v2/checkout/orders/${order.id}`;
    const links =
      order.status === 'COMPLETED'
        ? [this.link(self, 'self')]
        : [
            this.link(self, 'self'),
            this.link(`/checkoutnow?token=${order.id}`, 'approve'),
            this.link(self, 'update', 'PATCH'),
            this.link(`${self}/capture`, 'capture', 'POST'),
          ];
    return {
      id: order.id,
      intent: 'CAPTURE',
      status: order.status,
      purchase_units: units,
      ...(order.payer
        ? {
            payer: {
              name: { given_name: order.payer.given_name, surname: order.payer.surname },
              email_address: order.payer.email_address,
              payer_id: order.payer.payer_id,
              address: { country_code: 'US' },
            },
          }
        : {}),
      create_time: order.create_time,
      ...(order.update_time ? { update_time: order.update_time } : {}),
      links,
    };
  }

  /** `withOrderId`: the capture API and webhooks carry the order id; the order's own view does not. */
  private renderCapture(capture: StoredCapture, withOrderId = true): Record<string, unknown> {
    const self = `/v2/payments/captures/${capture.id}`;
    return {
      id: capture.id,
      status: capture.status,
      amount: capture.amount,
      final_capture: true,
      seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
      ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
      ...(capture.invoice_id ? { invoice_id: capture.invoice_id } : {}),
      ...(withOrderId ? { supplementary_data: { related_ids: { order_id: capture.order_id } } } : {}),
      create_time: capture.create_time,
      update_time: capture.update_time,
      links: [
        this.link(self, 'self'),
        this.link(`${self}/refund`, 'refund', 'POST'),
        this.link(`/v2/checkout/orders/${capture.order_id}`, 'up'),
      ],
    };
  }

  private renderRefund(refund: StoredRefund): Record<string, unknown> {
    return {
      id: refund.id,
      status: 'COMPLETED',
      amount: refund.amount,
      create_time: refund.create_time,
      update_time: refund.create_time,
      links: [this.link(`/v2/payments/refunds/${refund.id}`, 'self'), this.link(`/v2/payments/captures/${refund.capture_id}`, 'up')],
    };
  }
}

/** The merchant PayPal shows as payee: there is one merchant locally. */
const LOCAL_PAYEE = { email_address: 'merchant@quern.local', merchant_id: 'QUERNLOCAL000' };

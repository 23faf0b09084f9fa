/**
 * PayPal's webhooks: PAYMENT.CAPTURE.COMPLETED completes an order whose browser went away;
 * PAYMENT.CAPTURE.REFUNDED and .REVERSED take the bought MLX back (as far as the buyer's balance
 * allows, ADR 025). Every delivery is first checked with PayPal's verify-webhook-signature call on
 * the body exactly as received; a forged or altered one is refused and changes nothing. Every
 * recording is idempotent (keyed by the capture, refund or reversal id), so PayPal's redeliveries
 * and replays record once.
 */
import { AppError } from '@quern/core';
import {
  type PurchaseDeps,
  PURCHASE_ID_PATTERN,
  findOrderIdByCaptureId,
  recordProviderCapture,
  recordRefund,
  recordReversal,
} from '@quern/core/purchases';
import { type PayPalClient, PayPalError, payPalValueToCents } from '@quern/adapters/paypal';
import { log } from '@quern/adapters/runtime';
import { z } from 'zod';

export type PayPalWebhookOutcome = { received: true; recorded: boolean; eventType: string };

const id = z.string().regex(PURCHASE_ID_PATTERN);
const amount = z.object({ currency_code: z.literal('USD'), value: z.string().max(20) });
const link = z.object({ href: z.string(), rel: z.string() });
const envelope = z.object({ id: z.string().max(128), event_type: z.string().max(100), resource: z.record(z.string(), z.unknown()) });
const capture = z.object({
  id,
  status: z.string(),
  amount,
  supplementary_data: z.object({ related_ids: z.object({ order_id: id.optional() }).optional() }).optional(),
  links: z.array(link).optional(),
});
const refund = z.object({ id, status: z.string().optional(), amount, links: z.array(link) });

/** The capture a refund resource belongs to: its `up` link ends in /captures/{id}. */
function captureIdOfRefund(links: z.infer<typeof link>[]): string | undefined {
  const up = links.find((l) => l.rel === 'up')?.href;
  const match = up ? /\/captures\/([^/?#]+)\/?(?:[?#].*)?$/.exec(up) : null;
  return match?.[1] && PURCHASE_ID_PATTERN.test(match[1]) ? match[1] : undefined;
}

const malformed = () => new AppError('VALIDATION', 'errors:invalidRequest');

/** PayPal's "10.00" as cents; anything else is a malformed delivery. */
function centsOf(value: string): bigint {
  try {
    return BigInt(payPalValueToCents(value));
  } catch {
    throw malformed();
  }
}

/** PayPal's signature headers, each present once and of a sane length, or the delivery is not PayPal's. */
const SIGNATURE_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;
const SIGNATURE_HEADER_MAX = 2048;

const notVerified = () => new AppError('VALIDATION', 'errors:webhookNotVerified');

/**
 * Whether PayPal vouches for the delivery. Anything that does not verify is the caller's fault and
 * answers 400, never 500: missing or oversized signature headers and a body that is not a JSON
 * object are refused before PayPal is asked, and a verify call PayPal refuses or cannot answer
 * (a forged header can make it fail) counts as not verified. PayPal retries a refused delivery.
 */
async function verifyDelivery(
  paypal: PayPalClient,
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
): Promise<void> {
  for (const name of SIGNATURE_HEADERS) {
    const value = headers[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > SIGNATURE_HEADER_MAX) throw notVerified();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw notVerified();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw notVerified();
  let verified: boolean;
  try {
    verified = await paypal.verifyWebhook(headers, rawBody);
  } catch (error) {
    if (!(error instanceof PayPalError)) throw error;
    log.warn({ part: 'purchases', err: error }, 'PayPal webhook not verified');
    throw notVerified();
  }
  if (!verified) throw notVerified();
}

export async function handlePayPalWebhook(
  deps: { core: PurchaseDeps; paypal: PayPalClient },
  headers: Record<string, string | string[] | undefined>,
  rawBody: Buffer,
): Promise<PayPalWebhookOutcome> {
  await verifyDelivery(deps.paypal, headers, rawBody);
  let event: z.infer<typeof envelope>;
  try {
    event = envelope.parse(JSON.parse(rawBody.toString('utf8')));
  } catch {
    throw malformed();
  }
  const ignored = { received: true, recorded: false, eventType: event.event_type } as const;
  const { core } = deps;
  switch (event.event_type) {
    case 'PAYMENT.CAPTURE.COMPLETED': {
      const parsed = capture.safeParse(event.resource);
      if (!parsed.success) throw malformed();
      const orderId = parsed.data.supplementary_data?.related_ids?.order_id;
      if (parsed.data.status !== 'COMPLETED' || !orderId) return ignored;
      const usdCents = centsOf(parsed.data.amount.value);
      const outcome = await recordProviderCapture(core, { orderId, captureId: parsed.data.id, usdCents });
      // An order Quern never priced (another integration on the same PayPal account) is not ours to credit.
      return { ...ignored, recorded: outcome.kind === 'recorded' };
    }
    case 'PAYMENT.CAPTURE.REFUNDED': {
      const parsed = refund.safeParse(event.resource);
      if (!parsed.success) throw malformed();
      const captureId = captureIdOfRefund(parsed.data.links);
      const orderId = captureId && (await findOrderIdByCaptureId(core, captureId));
      if (!captureId || !orderId) return ignored;
      const usdCents = centsOf(parsed.data.amount.value);
      const result = await recordRefund(core, { orderId, captureId, refundId: parsed.data.id, usdCents });
      return { ...ignored, recorded: result.recorded };
    }
    case 'PAYMENT.CAPTURE.REVERSED': {
      // PayPal describes a reversal either as the capture (status REVERSED) or as the refund-like
      // reversal pointing `up` at its capture; a capture is reversed at most once.
      const asRefund = refund.safeParse(event.resource);
      const upCapture = asRefund.success ? captureIdOfRefund(asRefund.data.links) : undefined;
      const asCapture = capture.safeParse(event.resource);
      const captureId = upCapture ?? (asCapture.success ? asCapture.data.id : undefined);
      const value = asRefund.success ? asRefund.data.amount.value : asCapture.success ? asCapture.data.amount.value : undefined;
      if (!captureId || value === undefined) throw malformed();
      const orderId = await findOrderIdByCaptureId(core, captureId);
      if (!orderId) return ignored;
      const reversalId = upCapture && asRefund.success ? asRefund.data.id : `${captureId.slice(0, 62)}-R`;
      const result = await recordReversal(core, { orderId, captureId, reversalId, usdCents: centsOf(value) });
      return { ...ignored, recorded: result.recorded };
    }
    default:
      return ignored;
  }
}

/**
 * Creating an invoice once per Idempotency-Key (issue 27), as a payout is (ADR 033): the invoice's
 * id is derived from the merchant and the key, and the key's claim is appended atomically with the
 * invoice ('no_stream' on both), so twenty retries racing make one invoice and all answer it. A
 * retry must be the same request (its body's digest); another body with the key is refused (422).
 * The body's digest is of the request as sent, not of the terms: a USD invoice's price and every
 * invoice's expiry are fixed when the first request is decided, and a retry answers those.
 */
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import type { ExchangeRate } from '../wallet/money.js';
import { type InvoiceCreateInput, invoiceTermsOf } from './contracts.js';
import { createInvoice, type InvoiceDeps, readInvoice } from './handlers.js';
import type { InvoiceState } from './state.js';

export interface CreateInvoiceRequest {
  merchantUserId: string;
  merchantAddress: string;
  idempotencyKey: string;
  input: InvoiceCreateInput;
  /** The rate in force now; required for a USD price. */
  rate: ExchangeRate | undefined;
}

/** The canonical request: every field as text, so a retry with its keys in another order is the same one. */
function digestOf(input: InvoiceCreateInput): string {
  const price = input.price.currency === 'MLX' ? input.price.amountMlx.toString() : input.price.usdCents.toString();
  return requestDigest({
    currency: input.price.currency,
    amount: price,
    reference: input.reference,
    description: input.description,
    metadata: JSON.stringify(Object.entries(input.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    expiresInSeconds: String(input.expiresInSeconds),
    redirectUrl: input.redirectUrl,
    customerEmail: input.customerEmail,
  });
}

export async function createInvoiceOnce(
  deps: InvoiceDeps,
  request: CreateInvoiceRequest,
): Promise<{ invoice: InvoiceState; position?: bigint }> {
  const digest = idempotencyDigest(request.merchantUserId, request.idempotencyKey);
  const invoiceId = `in_${digest}`;
  const bodyDigest = digestOf(request.input);
  const answerFromClaim = async (): Promise<{ invoice: InvoiceState } | undefined> => {
    const claim = await readClaim(deps, digest);
    if (!claim) return undefined;
    requireSameRequest(claim, 'invoice', bodyDigest);
    const invoice = await readInvoice(deps, invoiceId);
    if (!invoice) throw new Error(`Invoice ${invoiceId} is claimed but not recorded`);
    return { invoice };
  };
  const repeated = await answerFromClaim();
  if (repeated) return repeated;
  const now = deps.clock.now();
  const terms = invoiceTermsOf(request.input, now, request.rate);
  if ('messageKey' in terms) throw new AppError('VALIDATION', terms.messageKey, { amount: terms.messageKey });
  try {
    // Decided at the same instant the terms were: the invoice lives exactly expires_in_seconds.
    return await createInvoice(
      { ...deps, clock: { now: () => now } },
      {
        merchantUserId: request.merchantUserId,
        merchantAddress: request.merchantAddress,
        terms,
        invoiceId,
        companions: [
          claimAppend(digest, {
            merchantUserId: request.merchantUserId,
            operation: 'invoice',
            requestDigest: bodyDigest,
            resourceId: invoiceId,
            claimedAt: now.toISOString(),
          }),
        ],
      },
    );
  } catch (error) {
    // A concurrent request with this key won (its claim and invoice came first): its claim answers.
    if (!(error instanceof WrongExpectedRevisionError || (error instanceof AppError && error.code === 'CONFLICT'))) throw error;
    const repeatedNow = await answerFromClaim();
    if (repeatedNow) return repeatedNow;
    throw error;
  }
}

/**
 * Refunds of what reached an invoice (issue 27, ADR 087). Whoever paid it, from any millix wallet,
 * gets the MLX back at an address they name, through a single-use claim link:
 *
 * 1. the merchant creates the refund, once per Idempotency-Key (`ir_<digest>`; the key's claim and
 *    the InvoiceRefundCreated are one atomic append on the invoice's stream, which decides the
 *    amount against what is stable and not yet held by other refunds);
 * 2. the link (`/refund/<id>#<token>`, the token a MAC of the id with the app secret, so nothing
 *    secret is in the log and the merchant may show it again) is mailed to the payer when the
 *    invoice had an e-mail, and is shown to the merchant to pass on;
 * 3. the payer claims it with an address: InvoiceRefundClaimed and the payout that sends the MLX
 *    (PayoutRequested and the merchant wallet's send, under a payout's rules: fee 1000, never
 *    overdrawn) are one atomic append, and the payout's id is derived from the refund's, so a
 *    refund is paid out once whatever races. The refund's outcome is its payout's.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { base64url, constantTimeEqual } from '../identity/reset-token.js';
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import { decidePayout } from '../payouts/decider.js';
import { payoutStream } from '../payouts/events.js';
import { readPayout } from '../payouts/handlers.js';
import { type Decision, handleCommand } from '../shared/command-handler.js';
import { AppError } from '../shared/errors.js';
import { WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import { InsufficientFundsRefusal } from '../wallet/refusals.js';
import { executeTransfer, executeWalletCommandWith, resolveRecipient, type WalletDeps } from '../wallet/handlers.js';
import { decideInvoice } from './decider.js';
import { INVOICE_REFUND_ID_PATTERN, type InvoiceEvent, invoiceStream } from './events.js';
import { cancelInvoiceRefundCommand, createInvoiceRefundCommand, readInvoice } from './handlers.js';
import { failedRefundIdsOf, type InvoiceRefundStatus } from './refund-contracts.js';
import { type InvoiceState, evolveInvoice, invoiceModel } from './state.js';

export type InvoiceRefundDeps = WalletDeps;

const PAYOUT_STATUS_OF_REFUND = { pending: 'pending', completed: 'succeeded', failed: 'failed' } as const;

/** The payout that sends a refund: derived from the refund, so a refund is paid out at most once. */
export const refundPayoutId = (merchantUserId: string, refundId: string): string =>
  `po_${idempotencyDigest(merchantUserId, `invoice-refund:${refundId}`)}`;

const CLAIM_SECRET_LENGTH_MIN = 16;
const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The claim link's token: HMAC-SHA256 of the refund id with the app secret, in base64url. */
export function refundClaimToken(appSecret: string, refundId: string): string {
  if (appSecret.length < CLAIM_SECRET_LENGTH_MIN) throw new Error('The app secret is too short to sign refund claim links');
  // The ':' keeps this message apart from every other token the app signs (their ids hold no ':').
  return base64url(hmac(sha256, utf8ToBytes(appSecret), utf8ToBytes(`invoice-refund-claim:${refundId}`)));
}

export const isRefundClaimToken = (appSecret: string, refundId: string, token: unknown): boolean =>
  typeof token === 'string' &&
  CLAIM_TOKEN_PATTERN.test(token) &&
  INVOICE_REFUND_ID_PATTERN.test(refundId) &&
  constantTimeEqual(refundClaimToken(appSecret, refundId), token);

export const refundClaimUrl = (publicUrl: string, appSecret: string, refundId: string): string =>
  `${publicUrl}/refund/${refundId}#${refundClaimToken(appSecret, refundId)}`;

/** The invoice a refund belongs to, from the refund id alone (its Idempotency-Key claim names it). */
export async function invoiceIdOfRefund(deps: Pick<WalletDeps, 'store'>, refundId: string): Promise<string | undefined> {
  if (!INVOICE_REFUND_ID_PATTERN.test(refundId)) return undefined;
  const claim = await readClaim(deps, refundId.slice('ir_'.length));
  return claim?.operation === 'invoiceRefund' && claim.resourceId === refundId ? claim.invoiceId : undefined;
}

/** Each claimed refund's payout status, read from the merchant's wallet. */
export async function refundPayoutStatuses(deps: InvoiceRefundDeps, invoice: InvoiceState): Promise<Map<string, InvoiceRefundStatus>> {
  const statuses = new Map<string, InvoiceRefundStatus>();
  for (const refund of invoice.refunds.values()) {
    if (!refund.claim) continue;
    const payout = await readPayout(deps, invoice.merchantUserId, refund.claim.payoutId);
    statuses.set(refund.refundId, payout ? PAYOUT_STATUS_OF_REFUND[payout.status] : 'pending');
  }
  return statuses;
}

/**
 * A refund of the merchant's invoice, once per Idempotency-Key. `amountMlx` undefined refunds all
 * that is still refundable. A retry with the same key answers the first refund; another request
 * with it is refused (422).
 */
export async function createInvoiceRefundOnce(
  deps: InvoiceRefundDeps,
  request: { merchantUserId: string; invoiceId: string; idempotencyKey: string; amountMlx?: bigint },
): Promise<{ invoice: InvoiceState; refundId: string; position?: bigint }> {
  const digest = idempotencyDigest(request.merchantUserId, request.idempotencyKey);
  const refundId = `ir_${digest}`;
  const bodyDigest = requestDigest({ invoice: request.invoiceId, amount: request.amountMlx?.toString() });
  const answerFromClaim = async () => {
    const claim = await readClaim(deps, digest);
    if (!claim) return undefined;
    requireSameRequest(claim, 'invoiceRefund', bodyDigest);
    const invoice = claim.invoiceId === undefined ? undefined : await readInvoice(deps, claim.invoiceId);
    if (!invoice?.refunds.has(refundId)) throw new Error(`Refund ${refundId} is claimed but not recorded`);
    return { invoice, refundId };
  };
  const repeated = await answerFromClaim();
  if (repeated) return repeated;
  const invoice = await readInvoice(deps, request.invoiceId);
  if (!invoice || invoice.merchantUserId !== request.merchantUserId) throw new AppError('NOT_FOUND', 'errors:invoiceNotFound');
  const failedRefundIds = [...failedRefundIdsOf(await refundPayoutStatuses(deps, invoice))];
  try {
    const created = await createInvoiceRefundCommand(deps, request.invoiceId, {
      data: {
        refundId,
        merchantUserId: request.merchantUserId,
        failedRefundIds,
        ...(request.amountMlx === undefined ? {} : { amountMlx: request.amountMlx }),
      },
      companions: [
        claimAppend(digest, {
          merchantUserId: request.merchantUserId,
          operation: 'invoiceRefund',
          requestDigest: bodyDigest,
          resourceId: refundId,
          invoiceId: request.invoiceId,
          claimedAt: deps.clock.now().toISOString(),
        }),
      ],
    });
    return { ...created, refundId };
  } catch (error) {
    // A concurrent request with this key won: its claim answers.
    if (!(error instanceof WrongExpectedRevisionError)) throw error;
    const repeatedNow = await answerFromClaim();
    if (repeatedNow) return repeatedNow;
    throw error;
  }
}

/** The merchant withdraws a refund nobody claimed; canceling it again changes nothing. */
export function cancelInvoiceRefund(deps: InvoiceRefundDeps, merchantUserId: string, invoiceId: string, refundId: string) {
  return cancelInvoiceRefundCommand(deps, invoiceId, { refundId, merchantUserId });
}

type Claimed = { events: InvoiceEvent[]; invoice: InvoiceState; payoutId: string; amountMlx: bigint };

/**
 * The payer claims the refund to `toAddress` (a millix address; a Quern wallet's is paid at once).
 * The claim and the payout are one append; a second claim finds the refund claimed and is refused
 * (the same address again answers as the first). A merchant balance too small for the payout is
 * refused with a message for the payer, and the link stays usable.
 */
export async function claimInvoiceRefund(
  deps: InvoiceRefundDeps,
  input: { refundId: string; toAddress: string },
): Promise<{ invoice: InvoiceState; position?: bigint; toWalletId?: string }> {
  const invoiceId = await invoiceIdOfRefund(deps, input.refundId);
  if (invoiceId === undefined) throw new AppError('NOT_FOUND', 'errors:refundClaimNotFound');
  const payee = await resolveRecipient(deps, { kind: 'address', address: input.toAddress });
  try {
    const handled = await handleCommand(
      deps,
      invoiceStream(invoiceId),
      invoiceModel,
      (state, now): Decision<InvoiceEvent, Claimed> => {
        if (!state) throw new AppError('NOT_FOUND', 'errors:refundClaimNotFound');
        // An address of the merchant's own wallet (the invoice's included) would send the MLX back to the merchant.
        if (payee.toWalletId === state.merchantUserId)
          throw new AppError('VALIDATION', 'errors:refundClaimMerchantAddress', { address: 'errors:refundClaimMerchantAddress' });
        const payoutId = refundPayoutId(state.merchantUserId, input.refundId);
        const events = decideInvoice(
          state,
          { type: 'ClaimInvoiceRefund', data: { refundId: input.refundId, payoutId, toAddress: input.toAddress } },
          now,
        );
        const amountMlx = state.refunds.get(input.refundId)?.amountMlx ?? 0n;
        return { events, result: { events, invoice: state, payoutId, amountMlx } };
      },
      {
        // The claim goes with the payout's request and the merchant wallet's send in one append.
        appendWith: async (appends, { result }) => {
          const merchantUserId = result.invoice.merchantUserId;
          const { requested, transfer } = decidePayout(
            {
              type: 'RequestPayout',
              data: { payoutId: result.payoutId, merchantUserId, to: payee.toAddress, ...payee, amountMlx: result.amountMlx },
            },
            deps.clock.now(),
          );
          const companions = () => [
            ...appends,
            { streamId: payoutStream(result.payoutId), events: [requested], expectedRevision: 'no_stream' as const },
          ];
          const executed =
            payee.toWalletId !== undefined
              ? await executeTransfer(deps, merchantUserId, transfer, companions)
              : await executeWalletCommandWith(deps, merchantUserId, transfer, companions);
          return executed.position === undefined ? 'alreadyRecorded' : { position: executed.position };
        },
      },
    );
    let invoice = handled.result.invoice;
    for (const event of handled.result.events) invoice = evolveInvoice(invoice, event) ?? invoice;
    return {
      invoice,
      ...(handled.position === undefined ? {} : { position: handled.position }),
      ...(payee.toWalletId === undefined ? {} : { toWalletId: payee.toWalletId }),
    };
  } catch (error) {
    // The payer cannot fix the merchant's balance: say so in their terms; the refund stays claimable.
    if (error instanceof InsufficientFundsRefusal) throw new AppError('CONFLICT', 'errors:refundClaimMerchantCannotPay');
    throw error;
  }
}

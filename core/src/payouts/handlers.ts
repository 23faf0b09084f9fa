/**
 * Payout handlers over the ports (ADR 033). A payout is a send from the merchant's wallet under
 * the send's rules (the wallet decider: fee 1000, never overdrawn, not to oneself), appended in
 * one atomic call with PayoutRequested (opening `payout-<id>`) and the Idempotency-Key's claim:
 * to a Quern wallet it is settled in that append (executeTransfer); to an external address it is
 * a reservation (executeWalletCommandWith) that the settlement worker posts or voids. The status
 * is read from the merchant's wallet transfer.
 */
import { claimAppend, idempotencyDigest, readClaim, requestDigest, requireSameRequest } from '../idempotency/claim.js';
import { AppError } from '../shared/errors.js';
import { type StreamAppend, WrongExpectedRevisionError } from '../shared/ports/event-store.js';
import type { Recipient } from '../wallet/contracts.js';
import {
  executeTransfer,
  executeWalletCommandWith,
  outgoingTransfer,
  readWallet,
  resolveRecipient,
  type WalletDeps,
} from '../wallet/handlers.js';
import { mlxToWire } from '../wallet/money.js';
import { walletStream } from '../wallet/events.js';
import type { PayoutOutput, PayoutStatus } from './contracts.js';
import type { RequestPayout } from './commands.js';
import { decidePayout } from './decider.js';
import { PAYOUT_ID_PATTERN, type PayoutRequested, payoutStream, toPayoutEvent } from './events.js';
import { settledPayoutStatus } from './settled-outcome.js';

export type PayoutDeps = WalletDeps;

export interface PayoutRequest {
  merchantUserId: string;
  idempotencyKey: string;
  /** The recipient as typed (trimmed) and as read. */
  toText: string;
  recipient: Recipient;
  amountMlx: bigint;
}

export interface PayoutResult {
  payout: PayoutOutput;
  /** Set when this call appended the payout: its log position and the Quern payee, if any. */
  appended?: { position: bigint; toWalletId?: string };
}

const STATUS_OF_TRANSFER = { reserved: 'pending', posted: 'completed', voided: 'failed' } as const satisfies Record<string, PayoutStatus>;

function toPayoutOutput(event: PayoutRequested, status: PayoutStatus): PayoutOutput {
  const d = event.data;
  return { id: d.payoutId, object: 'payout', to: d.to, amount: d.mlx, fee: d.feeMlx, currency: 'MLX', status, created_at: d.requestedAt };
}

/**
 * A payout from the merchant's wallet, once per Idempotency-Key. The claim and `payout-<id>` are
 * opened with 'no_stream' in the send's append: when either already exists a request with this
 * key won the race, and its claim gives the answer (no retry: deciding again would only meet it).
 */
export async function createPayout(deps: PayoutDeps, request: PayoutRequest): Promise<PayoutResult> {
  const digest = idempotencyDigest(request.merchantUserId, request.idempotencyKey);
  const payoutId = `po_${digest}`;
  const bodyDigest = requestDigest({ to: request.toText, amount: mlxToWire(request.amountMlx) });
  const answerFromClaim = async (): Promise<PayoutResult | undefined> => {
    const claim = await readClaim(deps, digest);
    if (!claim) return undefined;
    requireSameRequest(claim, 'payout', bodyDigest);
    const payout = await readPayout(deps, request.merchantUserId, payoutId);
    if (!payout) throw new Error(`Payout ${payoutId} is claimed but not recorded`);
    return { payout };
  };
  const repeated = await answerFromClaim();
  if (repeated) return repeated;
  const { toAddress, toWalletId } = await resolveRecipient(deps, request.recipient);
  const command: RequestPayout = {
    type: 'RequestPayout',
    data: {
      payoutId,
      merchantUserId: request.merchantUserId,
      to: request.toText,
      toAddress,
      ...(toWalletId !== undefined ? { toWalletId } : {}),
      amountMlx: request.amountMlx,
    },
  };
  const { requested, transfer } = decidePayout(command, deps.clock.now());
  const companions = (): StreamAppend[] => [
    { streamId: payoutStream(payoutId), events: [requested], expectedRevision: 'no_stream' },
    claimAppend(digest, {
      merchantUserId: request.merchantUserId,
      operation: 'payout',
      requestDigest: bodyDigest,
      resourceId: payoutId,
      claimedAt: requested.data.requestedAt,
    }),
  ];
  try {
    // Between Quern wallets a payout is settled at once, whatever the deployment does for sends.
    const position =
      toWalletId !== undefined
        ? (await executeTransfer(deps, request.merchantUserId, transfer, companions)).position
        : (await executeWalletCommandWith(deps, request.merchantUserId, transfer, companions)).position;
    if (position !== undefined) {
      const payout = toPayoutOutput(requested, toWalletId !== undefined ? 'completed' : 'pending');
      return { payout, appended: { position, ...(toWalletId !== undefined ? { toWalletId } : {}) } };
    }
    // The merchant's wallet already holds this payout's transfer: appended by a concurrent repeat.
  } catch (error) {
    // A concurrent request with this key may have won (its claim or payout stream came first, or
    // its send left too little MLX for this one): its claim decides the answer.
    if (!(error instanceof WrongExpectedRevisionError || error instanceof AppError)) throw error;
    const repeatedNow = await answerFromClaim();
    if (repeatedNow) return repeatedNow;
    if (error instanceof AppError) throw error;
  }
  const repeatedNow = await answerFromClaim();
  if (repeatedNow) return repeatedNow;
  throw new AppError('CONCURRENCY', 'errors:busy');
}

/** A merchant's own payout by id, with its status from the merchant's wallet; undefined otherwise. */
export async function readPayout(
  deps: Pick<PayoutDeps, 'store' | 'serialize' | 'stateCache' | 'snapshotEveryEvents' | 'transferTerms'>,
  merchantUserId: string,
  payoutId: string,
): Promise<PayoutOutput | undefined> {
  if (!PAYOUT_ID_PATTERN.test(payoutId)) return undefined;
  const [first] = await deps.store.readStream(payoutStream(payoutId), { maxCount: 1 });
  const event = first ? toPayoutEvent(first) : undefined;
  if (!event || event.data.merchantUserId !== merchantUserId) return undefined;
  const { state } = await readWallet(deps, merchantUserId);
  const transfer = outgoingTransfer(state, event.data.transferId);
  if (transfer) return toPayoutOutput(event, STATUS_OF_TRANSFER[transfer.status]);
  // A wallet forgets long-settled transfers (ADR 020); the log still says how this one ended.
  const status = await settledPayoutStatus(
    deps.store,
    walletStream(merchantUserId),
    event.data.transferId,
    first?.position ?? 0n,
    state.eventCount,
  );
  return toPayoutOutput(event, status);
}

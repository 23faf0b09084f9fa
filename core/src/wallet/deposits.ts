/**
 * Records one network transaction output as a deposit, when it pays a Quern wallet. The deposit
 * watcher calls it for every output of the network's incoming feed; a node-notification webhook
 * should call it too, so both paths give the same deposit id and the second sighting is a no-op:
 * the wallet's state knows the deposit id, or, once it has forgotten a settled one, the deposit
 * id's claim stream does (ADR 020).
 *
 * Deposit id: `<transactionHash>:<outputPosition>` (core's depositIdOf, inside
 * DEPOSIT_ID_PATTERN): a transaction can pay several addresses, and each output pays one.
 */
import type { Clock } from '../shared/clock.js';
import { isAppError } from '../shared/errors.js';
import type { EventStore } from '../shared/ports/event-store.js';
import { executeDepositReceipt, findWalletIdByAddress } from './handlers.js';
import { depositIdOf, type IncomingTransaction } from './network.js';
import type { TransferTermsBook } from './transfer-terms.js';

export type IncomingOutcome =
  | { outcome: 'recorded'; walletId: string; depositId: string }
  /** Already in the wallet's stream (the feed delivers at least once). */
  | { outcome: 'already-recorded'; walletId: string; depositId: string }
  /** The address is not a Quern wallet's: not ours to record. */
  | { outcome: 'not-quern' }
  /**
   * The wallet refuses it for good (an account that takes no deposits, a payer address of the
   * other network, the same deposit id with other details). Retrying cannot change that.
   */
  | { outcome: 'refused'; walletId: string; depositId: string; reason: string };

export async function recordIncomingTransaction(
  deps: { store: EventStore; clock: Clock; transferTerms: TransferTermsBook },
  incoming: IncomingTransaction,
): Promise<IncomingOutcome> {
  // Strongly consistent (the address's claim stream), so a wallet opened a moment ago is found.
  const walletId = await findWalletIdByAddress(deps, incoming.toAddress);
  if (walletId === undefined) return { outcome: 'not-quern' };
  const depositId = depositIdOf(incoming);
  try {
    const executed = await executeDepositReceipt(deps, walletId, {
      type: 'ReceiveDeposit',
      data: {
        depositId,
        networkTransactionHash: incoming.transactionHash,
        fromAddress: incoming.fromAddress,
        amountMlx: incoming.amountMlx,
        toAddress: incoming.toAddress,
      },
    });
    return { outcome: executed.decision.events.length > 0 ? 'recorded' : 'already-recorded', walletId, depositId };
  } catch (error) {
    // A lost race (CONCURRENCY) or a store failure may pass; a domain refusal will not.
    if (!isAppError(error) || error.code === 'CONCURRENCY' || error.code === 'UNAVAILABLE') throw error;
    return { outcome: 'refused', walletId, depositId, reason: `${error.code} ${error.messageKey}` };
  }
}

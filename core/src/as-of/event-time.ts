/**
 * The time each event states for itself (the ledger's clock when it was decided): what an
 * instant given as `as_of` is compared with, the same time the wallet history and the payments
 * list show (ADR 089).
 */
import { assertNever } from '../shared/assert.js';
import type { CheckoutEvent } from '../checkout/events.js';
import type { CheckoutRefunded } from '../refunds/events.js';
import type { WalletEvent } from '../wallet/events.js';

export function walletEventTime(event: WalletEvent): string {
  switch (event.type) {
    case 'WalletOpened':
      return event.data.openedAt;
    case 'SupplyMinted':
      return event.data.mintedAt;
    case 'TransferReserved':
      return event.data.reservedAt;
    case 'TransferCredited':
      return event.data.creditedAt;
    case 'TransferPosted':
      return event.data.postedAt;
    case 'TransferVoided':
      return event.data.voidedAt;
    case 'DepositReceived':
      return event.data.receivedAt;
    case 'DepositConfirmed':
      return event.data.confirmedAt;
    case 'DepositRejected':
      return event.data.rejectedAt;
    case 'WalletClosed':
      return event.data.closedAt;
    default:
      return assertNever(event);
  }
}

/** An order stream holds its payment and its refunds (ADR 033). */
export function orderEventTime(event: CheckoutEvent | CheckoutRefunded): string {
  return event.type === 'CheckoutRefunded' ? event.data.refundedAt : event.data.paidAt;
}

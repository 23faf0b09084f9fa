/**
 * The movements of a wallet in a month, read from the log a page at a time (ADR 090): every event
 * that changed the posted balance (a credit, a settled debit, a confirmed deposit), in revision
 * order, as a statement row's covered fields, with the USD rate in force when it was recorded and
 * its counterparty as the ledger names it (address and wallet id). Holds one page at a time.
 */
import type { EventStore, RecordedEvent } from '@quern/core';
import { historyKindOf, toTransactionPurpose } from '@quern/core/history';
import type { StatementRowFields } from '@quern/core/statements';
import { toKnownTransferReference } from '@quern/core/transfer-references';
import { createRateWalk } from '@quern/core/receipts';
import { type TransferReference, toWalletEvent, type WalletEvent } from '@quern/core/wallet';
import { walletEventTime } from '@quern/core/as-of';

/** Events read from the log per round trip; also the most held in memory at once. */
export const STATEMENT_PAGE_SIZE = 500;

/** A row's covered fields before the chain numbers and hashes it. */
export type Movement = Omit<StatementRowFields, 'seq' | 'balance_after'> & { stamped?: string };

function referenceText(reference: TransferReference | undefined): string {
  if (!reference) return '';
  const values = Object.keys(reference)
    .filter((field) => field !== 'kind')
    .sort()
    .map((field) => String(reference[field]));
  return [reference.kind, ...values].join(' ');
}

function kindOf(direction: 'credit' | 'debit', reference: TransferReference | undefined): string {
  const known = reference === undefined ? undefined : toKnownTransferReference(reference);
  return historyKindOf({ transaction_type: direction, purpose: known ? toTransactionPurpose(known) : undefined });
}

/** The row fields of a movement event, or undefined for an event that moved no posted money. */
function movementOf(event: WalletEvent): Omit<Movement, 'event_id' | 'position' | 'usd_rate'> | undefined {
  const time = new Date(walletEventTime(event)).toISOString();
  const stamped = 'balanceAfter' in event.data ? event.data.balanceAfter?.postedMlx : undefined;
  switch (event.type) {
    case 'TransferCredited':
      return {
        time,
        kind: kindOf('credit', event.data.reference),
        counterparty_address: event.data.fromAddress,
        counterparty_wallet: event.data.fromWalletId,
        transaction: event.data.transferId,
        reference: referenceText(event.data.reference),
        amount: event.data.amountMlx,
        fee: '0',
        stamped,
      };
    case 'TransferPosted':
      return {
        time,
        kind: kindOf('debit', event.data.reference),
        counterparty_address: event.data.toAddress,
        counterparty_wallet: event.data.toWalletId ?? '',
        transaction: event.data.transferId,
        reference: referenceText(event.data.reference),
        amount: event.data.amountMlx === '0' ? '0' : `-${event.data.amountMlx}`,
        fee: event.data.feeMlx,
        stamped,
      };
    case 'DepositConfirmed':
      return {
        time,
        kind: 'received',
        counterparty_address: event.data.fromAddress ?? '',
        counterparty_wallet: '',
        transaction: event.data.networkTransactionHash ?? event.data.depositId,
        reference: '',
        amount: event.data.amountMlx,
        fee: '0',
        stamped,
      };
    case 'SupplyMinted':
      return {
        time,
        kind: 'received',
        counterparty_address: '',
        counterparty_wallet: '',
        transaction: '',
        reference: '',
        amount: event.data.amountMlx,
        fee: '0',
        stamped,
      };
    default:
      return undefined;
  }
}

/**
 * The wallet's movements from `fromRevision` up to the first event at or after `endMs` (or the
 * end of the stream), oldest first.
 */
export async function* monthMovements(
  store: EventStore,
  streamId: string,
  range: { fromRevision: bigint; endMs: number },
  pageSize = STATEMENT_PAGE_SIZE,
): AsyncGenerator<Movement> {
  // The rate in force before each row, read a page at a time as the rows go up the log (the receipts' walk).
  const rates = createRateWalk(store);
  let revision = range.fromRevision;
  for (;;) {
    const page: RecordedEvent[] = await store.readStream(streamId, { fromRevision: revision, maxCount: pageSize });
    for (const recorded of page) {
      const event = toWalletEvent(recorded);
      if (!event) continue;
      if (Date.parse(walletEventTime(event)) >= range.endMs) return;
      const movement = movementOf(event);
      if (movement)
        yield {
          event_id: recorded.id,
          position: recorded.position.toString(),
          usd_rate: (await rates.at(recorded.position)) ?? '',
          ...movement,
        };
    }
    if (page.length < pageSize) return;
    revision = page[page.length - 1]!.revision + 1n;
  }
}

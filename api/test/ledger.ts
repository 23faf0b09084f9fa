/** Ledger helpers for integration tests: fund a wallet from the reserve, audit the whole log. */
import { randomBytes, randomUUID } from 'node:crypto';
import { systemClock, type EventStore } from '@quern/core';
import { SYSTEM_WALLET_IDS, sendMlx, settleInternalTransfer, type WalletDeps } from '@quern/core/wallet';
import { createLedgerAuditor, type LedgerAudit } from '@quern/core/audit';
import { identityPayeeDirectory } from '@quern/core/identity';
import { transferTermsBook } from '@quern/core/transfer-references';

export const walletDepsFor = (store: EventStore): WalletDeps => ({
  store,
  transferTerms: transferTermsBook,
  clock: systemClock,
  newId: randomUUID,
  newKeyIdentifier: () => new Uint8Array(randomBytes(20)),
  network: 'mainnet',
  payees: identityPayeeDirectory({ store }),
});

/** Moves amountMlx from the reserve to the address and settles it (the worker may also; both are idempotent). */
export async function fundFromReserve(store: EventStore, address: string, amountMlx: bigint): Promise<void> {
  const deps = walletDepsFor(store);
  const sent = await sendMlx(deps, SYSTEM_WALLET_IDS.reserve, { to: { kind: 'address', address }, amount: amountMlx, fee: 1000n });
  await settleInternalTransfer(deps, SYSTEM_WALLET_IDS.reserve, sent.transferId);
}

export async function auditLog(store: EventStore): Promise<LedgerAudit & { reservedTransferIds: Map<string, number> }> {
  const auditor = createLedgerAuditor();
  const reservedTransferIds = new Map<string, number>();
  let after: bigint | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 5000 });
    for (const event of page) {
      auditor.add({ streamId: event.streamId, type: event.type, data: event.data, position: event.position });
      if (event.type === 'TransferReserved') {
        const id = String(event.data.transferId);
        reservedTransferIds.set(id, (reservedTransferIds.get(id) ?? 0) + 1);
      }
    }
    if (page.length < 5000) break;
    after = page[page.length - 1]?.position;
  }
  return { ...auditor.summary(), reservedTransferIds };
}

/** How many events of `type` the whole log holds (a test's "nothing was recorded" check). */
export async function countEventsOfType(store: EventStore, type: string): Promise<number> {
  let count = 0;
  let after: bigint | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 5000 });
    count += page.filter((event) => event.type === type).length;
    if (page.length < 5000) return count;
    after = page[page.length - 1]?.position;
  }
}

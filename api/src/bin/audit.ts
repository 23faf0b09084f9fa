/**
 * `npm run audit`: replays the whole event log in bounded pages and checks the ledger's
 * invariants (the sum of all balances equals the supply minted, no available balance below
 * zero, every transfer reserved once and settled or voided at most once, and the network account
 * at exactly minus the net MLX that crossed the boundary with the millix network, ADR 017), and
 * the purchases' (ADR 025), and that a wallet is closed only when empty and then sends and is
 * credited nothing (ADR 042). Prints the ledger's figures, then each money capability's (its
 * audit rule's `describe`, in the list's order), then the closed wallets, a line each; exits 1 on
 * any violation, 2 when the log cannot be read. The first line names the mode (ADR 049), so a
 * report of test money is never mistaken for the live ledger.
 */
import { resolve } from 'node:path';
import { formatMlx } from '@quern/core/wallet';
import { createLedgerAuditor } from '@quern/core/audit';
import { loadConfig } from '../config.js';
import { openRawEventStore } from '@quern/adapters/eventstore';

const PAGE_SIZE = 5_000;

async function main(): Promise<number> {
  // Parsing only: auditing a live log needs the log, not every live setting (mail, PayPal...).
  const config = loadConfig(process.env, { modeRules: false });
  const where = config.EVENTSTORE_URL ? 'KurrentDB (EVENTSTORE_URL)' : `SQLite in ${resolve(config.DATA_DIR)}`;
  console.log(`Quern audit in ${config.QUERN_MODE} mode${config.QUERN_MODE === 'sandbox' ? ' (test money only)' : ''}: ${where}`);
  // The raw log: the audit reads amounts, never personal data (ADR 042).
  const store = openRawEventStore({ eventStoreUrl: config.EVENTSTORE_URL, dataDir: resolve(config.DATA_DIR) });
  const auditor = createLedgerAuditor();
  const startedMs = Date.now();
  try {
    let after: bigint | undefined;
    for (;;) {
      const page = await store.readAll({ after, maxCount: PAGE_SIZE });
      for (const event of page) auditor.add({ streamId: event.streamId, type: event.type, data: event.data, position: event.position });
      if (page.length < PAGE_SIZE) break;
      after = page[page.length - 1]?.position;
    }
  } finally {
    await store.close();
  }
  const audit = auditor.summary();
  const mlx = (value: bigint) => `${value < 0n ? '-' : ''}${formatMlx(value < 0n ? -value : value, 'en')} MLX`;
  const lines = [
    `events read: ${audit.eventCount} (${audit.walletEventCount} wallet events, ${audit.walletCount} wallets) in ${Date.now() - startedMs} ms`,
    `minted: ${mlx(audit.mintedMlx)}`,
    `posted balances: ${mlx(audit.postedTotalMlx)}; fees accrued: ${mlx(audit.feeAccruedMlx)}; in transit: ${mlx(audit.inTransitMlx)}`,
    `ledger total: ${mlx(audit.ledgerTotalMlx)} (must equal minted)`,
    `network boundary: in ${mlx(audit.boundary.inMlx)} (confirmed deposits), out ${mlx(audit.boundary.outMlx)} (posted external sends), net ${mlx(audit.boundary.netMlx)}; allocated inside Quern: ${mlx(audit.boundary.allocatedMlx)}`,
    `network account: ${mlx(audit.networkBalanceMlx)} (must equal allocated − net)`,
    `held by open reservations: ${mlx(audit.pendingDebitsMlx)}; pending deposits: ${mlx(audit.pendingCreditsMlx)}`,
    `transfers: ${audit.transfers.reserved} reserved, ${audit.transfers.posted} posted, ${audit.transfers.voided} voided, ${audit.transfers.open} open`,
    `deposits: ${audit.deposits.received} received, ${audit.deposits.confirmed} confirmed, ${audit.deposits.rejected} rejected, ${audit.deposits.open} open`,
    ...auditor.describeCapabilities(mlx),
    `closed wallets: ${audit.closedWallets.closed} (held for closed accounts: ${mlx(audit.closedWallets.heldMlx)} from ${audit.closedWallets.depositsConfirmed} deposit(s) confirmed after closing, ${mlx(audit.closedWallets.pendingMlx)} pending)`,
  ];
  for (const line of lines) console.log(line);
  if (audit.ok) {
    console.log('audit: OK');
    return 0;
  }
  console.log(`audit: ${audit.violationCount} violation(s)`);
  for (const violation of audit.violations) console.log(`  ${JSON.stringify(violation)}`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`audit: could not read the log: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);

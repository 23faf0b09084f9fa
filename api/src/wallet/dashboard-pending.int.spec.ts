// Proves the dashboard's pending truth (ADR 062): a deposit the network reports is on the pending
// list and in pending_incoming as soon as the watcher records it, long before it confirms, and an
// outgoing send waiting for settlement counts in pending_outgoing (amount plus fee) while Current
// already leaves it out; and a transaction is found by its hash for the detail's own URL, only by
// its owner, with a clear 404 for another user and a 400 for a malformed hash.
import { openSimulatedNetwork, simulatedFaucetAddress, simulatedNetworkFile, type SimulatedNetwork } from '@quern/adapters/millix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundFromReserve } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser, type TestUser } from '../../test/users.js';

let quern: TestQuern;
let network: SimulatedNetwork;
let shopper: TestUser;
let stranger: TestUser;
let depositHash: string;

const lookup = (user: TestUser, hash: string) =>
  quern.call('GET', `/trpc/wallet.transaction?input=${encodeURIComponent(JSON.stringify({ hash }))}`, { cookie: user.cookie });
/** Long enough that the deposit is certainly still pending while the test looks at it. */
const CONFIRM_DELAY_MS = 600_000;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', DEPOSIT_POLL_INTERVAL_MS: '50', SETTLEMENT_DELAY_MS: '600000' });
  // The faucet's side of the same simulated network file, as the faucet CLI opens it.
  network = openSimulatedNetwork({ file: simulatedNetworkFile(quern.dataDir), confirmDelayMs: CONFIRM_DELAY_MS });
  shopper = await registerUser(quern, 'pend_shopper');
  stranger = await registerUser(quern, 'pend_stranger');
});
afterAll(async () => {
  await network?.close();
  await quern?.stop();
});

describe('dashboard pending figures', () => {
  it('shows a deposit as pending as soon as the network reports it, not at confirmation', async () => {
    const { transactionHash } = await network.deposit(shopper.address, 5_000n);
    depositHash = transactionHash;
    const pending = await eventually(async () => {
      const r = await quern.call('GET', '/api/quern/pending-transactions', { cookie: shopper.cookie });
      return r.body.content?.length > 0 ? r.body.content : undefined;
    });
    expect(pending).toEqual([expect.objectContaining({ transaction_hash: transactionHash, transaction_type: 'credit', amount: '5000' })]);
    expect(await network.transactionStatus(transactionHash)).toBe('pending');
    expect(await webBalance()).toEqual({ stable: '0', unstable: '5000', pending_incoming: '5000', pending_outgoing: '0' });
    // The spec's REST balance keeps its two fields.
    const rest = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
    expect(rest.body).toEqual({ stable: '0', unstable: '5000' });
  });

  /** The web app's balance (tRPC wallet.balance): the spec's two figures and the pending split. */
  const webBalance = async () => (await quern.call('GET', '/trpc/wallet.balance', { cookie: shopper.cookie })).body.result.data;

  it('counts an outgoing send waiting for settlement in pending_outgoing, amount plus fee', async () => {
    await fundFromReserve(quern.store, shopper.address, 100_000n);
    await eventually(async () => {
      const r = await quern.call('GET', `/api/millix/balance/${shopper.address}`, { cookie: shopper.cookie });
      return r.body.stable === '100000' ? r : undefined;
    });
    const outside = simulatedFaucetAddress('mainnet');
    const sent = await quern.call('POST', '/api/millix/send', {
      cookie: shopper.cookie,
      body: { to: outside, amount: '2000', fee: '1000' },
    });
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('reserved');
    // Current is what can be spent now; the pending list and its sums hold both directions.
    expect(await webBalance()).toEqual({ stable: '97000', unstable: '5000', pending_incoming: '5000', pending_outgoing: '3000' });
    const pending = await quern.call('GET', '/api/quern/pending-transactions', { cookie: shopper.cookie });
    expect(pending.body.content.map((item: { transaction_type: string }) => item.transaction_type).sort()).toEqual(['credit', 'debit']);
  });

  it('finds a transaction by its hash for its owner only; another user gets 404 with a message, a malformed hash 400', async () => {
    const own = await lookup(shopper, depositHash);
    expect(own.status).toBe(200);
    expect(own.body.result.data.transaction).toMatchObject({ transaction_hash: depositHash, amount: '5000', transaction_type: 'credit' });
    const completed = await eventually(async () => {
      const page = await quern.call('GET', '/api/quern/transactions?page=0', { cookie: shopper.cookie });
      return page.body.transactions?.[0] as { transaction_hash: string; balance: string } | undefined;
    });
    expect((await lookup(shopper, completed.transaction_hash)).body.result.data.transaction).toMatchObject({ balance: completed.balance });
    const foreign = await lookup(stranger, depositHash);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toMatch(/not in your account/);
    expect((await lookup(shopper, 'no*glob"here')).status).toBe(400);
  });
});

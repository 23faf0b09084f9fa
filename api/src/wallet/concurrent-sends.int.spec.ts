// Proves that 200 concurrent sends from a wallet that affords exactly 50 give exactly 50
// successes and 150 clear refusals, never a 5xx and never a negative balance, and that
// everything settles with the ledger's invariants intact.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { auditLog, fundFromReserve } from '../../test/ledger.js';
import { cookieOf, eventually, startTestQuern, type TestQuern } from '../../test/quern.js';

let quern: TestQuern;

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000' });
});
afterAll(async () => {
  await quern?.stop();
});

async function register(name: string) {
  const user = {
    userName: name,
    firstName: 'Test',
    lastName: 'User',
    email: `${name}@example.com`,
    phone: `+1555${String(Math.random()).slice(2, 9)}`,
    password: 'long enough secret',
  };
  expect((await quern.call('POST', '/api/user/register', { body: user })).status).toBe(200);
  const login = await quern.call('POST', '/api/user/login', { body: { email: user.email, password: user.password } });
  const cookie = cookieOf(login.setCookie);
  const { address } = (await quern.call('GET', '/api/millix/address', { cookie })).body as { address: string };
  return { ...user, cookie, address };
}

it('given a wallet affording exactly 50 sends, when 200 are sent at once, then exactly 50 succeed', async () => {
  const payer = await register('payer_c');
  const payee = await register('payee_c');
  const amount = 1n;
  await fundFromReserve(quern.store, payer.address, 50n * (amount + 1000n));
  await eventually(async () => {
    const balance = await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie });
    return balance.body.stable === '50050' ? true : undefined;
  });

  const responses = await Promise.all(
    Array.from({ length: 200 }, () =>
      quern.call('POST', '/api/millix/send', {
        cookie: payer.cookie,
        body: { to: payee.userName, amount: amount.toString(), fee: '1000' },
      }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s >= 500)).toEqual([]);
  expect(statuses.filter((s) => s === 200)).toHaveLength(50);
  const refused = responses.filter((r) => r.status !== 200);
  expect(new Set(refused.map((r) => `${r.status} ${r.body.messageKey}`))).toEqual(new Set(['409 errors:insufficientFunds']));

  // Everything settles: the payer has nothing left, the payee has 50, the audit is clean.
  await eventually(async () => {
    const audit = await auditLog(quern.store);
    return audit.transfers.open === 0 ? audit : undefined;
  }, 30_000);
  const payerBalance = await quern.call('GET', `/api/millix/balance/${payer.address}`, { cookie: payer.cookie });
  expect(payerBalance.body).toEqual({ stable: '0', unstable: '0' });
  const payeeBalance = await quern.call('GET', `/api/millix/balance/${payee.address}`, { cookie: payee.cookie });
  expect(payeeBalance.body.stable).toBe('50');
  const audit = await auditLog(quern.store);
  expect(audit.violations).toEqual([]);
  expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
  expect([...audit.reservedTransferIds.values()].every((count) => count === 1)).toBe(true);
});

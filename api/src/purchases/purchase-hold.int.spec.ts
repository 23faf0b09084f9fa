// Proves over real HTTP that MLX bought with PayPal cannot leave at once: right after the credit a
// send (GET and POST /api/millix/send, tRPC wallet.send) is refused with a message saying how much
// is held and until when, and moves nothing, while a checkout pays with it at once; once the hold
// is over (the ledger's clock moved past PURCHASE_HOLD_HOURS) the send goes through; a chargeback
// larger than what is left records the shortfall as the reserve's loss and the audit stays clean.
import type { Clock } from '@quern/core';
import { purchaseStream } from '@quern/core/purchases';
import { formatDate } from '@quern/core/i18n';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../test/ledger.js';
import { eventually, startTestQuern, type TestQuern } from '../../test/quern.js';
import { registerUser } from '../../test/users.js';

const HOUR_MS = 3_600_000;
/** The ledger's clock: the system's, moved forward by the test. */
const ledgerClock: Clock & { offsetMs: number } = { offsetMs: 0, now: (): Date => new Date(Date.now() + ledgerClock.offsetMs) };

interface User {
  name: string;
  cookie: string;
  address: string;
}

let quern: TestQuern;
let buyer: User;
let friend: User;
let merchant: User;

/** Sends name payees by username, so their addresses need no proving (ADR 046). */
const register = (name: string): Promise<User> => registerUser(quern, name, { verified: false });

const stable = async (user: User) =>
  BigInt((await quern.call('GET', `/api/millix/balance/${user.address}`, { cookie: user.cookie })).body.stable as string);

/** Buys `value` USD of MLX as the Buy page does: order, approval in the popup, capture, credit. */
async function buy(user: User, value: string) {
  const created = await quern.call('POST', '/api/paypal/orders', { cookie: user.cookie, body: { cart: { value } } });
  expect(created.status).toBe(200);
  const orderId = created.body.id as string;
  expect((await quern.call('POST', '/paypal-local/checkoutnow/approve', { cookie: user.cookie, body: { token: orderId } })).status).toBe(
    200,
  );
  const captured = await quern.call('POST', `/api/paypal/orders/${orderId}/capture`, { cookie: user.cookie });
  const captureId = captured.body.purchase_units[0].payments.captures[0].id as string;
  const credited = await quern.call('POST', '/api/reserve/transfer', {
    cookie: user.cookie,
    body: { id: captureId, amount: created.body.amount },
  });
  expect(credited.status).toBe(200);
  return { orderId, captureId, mlx: BigInt(created.body.amount as string) };
}

/** The spec's GET send as the web app's script makes it. */
const sendByGet = (from: User, to: User, amount: string) =>
  quern.call('GET', `/api/millix/send?to=${to.name}&amount=${amount}&fee=1000`, {
    cookie: from.cookie,
    headers: { 'x-requested-with': 'XMLHttpRequest', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' },
  });

beforeAll(async () => {
  quern = await startTestQuern({ REGISTRATIONS_PER_IP_HOUR: '1000', PURCHASE_HOLD_HOURS: '72' }, { ledgerClock });
  buyer = await register('hold_buyer');
  friend = await register('hold_friend');
  merchant = await register('hold_merchant');
});
afterAll(async () => {
  await quern.stop();
});

describe('bought MLX and its hold', () => {
  it('given MLX just bought, when sent at once, then refused with how much is held and until when; a checkout pays at once; after the hold the send goes through', async () => {
    const { mlx } = await buy(buyer, '10.00');
    expect(mlx).toBe(800_000n);
    await eventually(async () => ((await stable(buyer)) === mlx ? true : undefined));

    const byPost = await quern.call('POST', '/api/millix/send', {
      cookie: buyer.cookie,
      body: { to: friend.name, amount: '5000', fee: '1000' },
    });
    expect(byPost.status).toBe(409);
    expect(byPost.body).toMatchObject({
      code: 'CONFLICT',
      messageKey: 'errors:purchasedMlxHeld',
      params: { heldMlx: '800000', sendableMlx: '0' },
    });
    // The day the hold ends, written as English writes dates (22/11/2026), in UTC.
    const until = formatDate(new Date(ledgerClock.now().getTime() + 72 * HOUR_MS), 'en', { timeZone: 'UTC' });
    expect(byPost.body.message).toContain('800,000 MLX bought with PayPal is held until');
    expect(byPost.body.message).toContain(until);
    expect((await sendByGet(buyer, friend, '5000')).body).toMatchObject({ messageKey: 'errors:purchasedMlxHeld' });
    const byTrpc = await quern.call('POST', '/trpc/wallet.send', {
      cookie: buyer.cookie,
      body: { to: friend.name, amount: '5000', fee: '1000' },
    });
    expect(byTrpc.status).toBe(409);
    expect(byTrpc.body.error.data.appError).toMatchObject({ messageKey: 'errors:purchasedMlxHeld' });
    expect(await stable(friend)).toBe(0n);

    const paid = await quern.call('POST', '/api/quern/checkout', {
      cookie: buyer.cookie,
      body: { cart: [{ name: 'Tea', price: '350000', quantity: 1 }], price: '350000', currency: 'mlx', to: merchant.name },
    });
    expect(paid.status).toBe(200);
    await eventually(async () => ((await stable(merchant)) === 350_000n ? true : undefined));

    ledgerClock.offsetMs += 72 * HOUR_MS + 60_000;
    const sent = await quern.call('POST', '/api/millix/send', {
      cookie: buyer.cookie,
      body: { to: friend.name, amount: '5000', fee: '1000' },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => ((await stable(friend)) === 5000n ? true : undefined));
    expect((await auditLog(quern.store)).violations).toEqual([]);
  });

  it('given a purchase mostly spent, when PayPal reports a chargeback of all of it, then what is left comes back and the rest is recorded as the reserve loss; the audit is clean', async () => {
    const { orderId, captureId, mlx } = await buy(buyer, '5.00');
    const before = await stable(buyer);
    // Spent at once on a checkout (allowed while held), leaving less than the purchase.
    const spendMlx = before - 100_000n;
    const paid = await quern.call('POST', '/api/quern/checkout', {
      cookie: buyer.cookie,
      body: { cart: [{ name: 'Cup', price: String(spendMlx), quantity: 1 }], price: String(spendMlx), currency: 'mlx', to: merchant.name },
    });
    expect(paid.status).toBe(200);
    expect((await quern.call('POST', `/paypal-local/local/captures/${captureId}/reverse`)).status).toBe(200);

    const events = await eventually(async () => {
      const recorded = await quern.store.readStream(purchaseStream(orderId));
      return recorded.some((e) => e.type === 'PurchaseReserveLoss') ? recorded : undefined;
    });
    const reversed = events.find((e) => e.type === 'PurchaseReversed')?.data as { mlxReturned: string };
    const loss = events.find((e) => e.type === 'PurchaseReserveLoss')?.data as { mlxOwed: string; mlxReturned: string; mlxLost: string };
    expect(BigInt(reversed.mlxReturned)).toBe(100_000n);
    expect(loss).toMatchObject({ mlxOwed: String(mlx), mlxReturned: '100000', mlxLost: String(mlx - 100_000n) });
    await eventually(async () => ((await stable(buyer)) === 0n ? true : undefined));

    const audit = await auditLog(quern.store);
    expect(audit.violations).toEqual([]);
    expect(audit.ledgerTotalMlx).toBe(audit.mintedMlx);
    expect(audit.purchases.reserveLosses).toBe(1);
    expect(audit.purchases.reserveLossMlx).toBe(mlx - 100_000n);
  });
});

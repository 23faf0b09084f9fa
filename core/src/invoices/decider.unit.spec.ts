// Proves the invoice's rules (issue 27): created once with its terms; each status path (exact,
// partial then completed, partial then expired, over, late, void) from the payments' stages; the
// same payment recorded once and a changed one refused; the expiry waits for its time and for a
// payment seen in time; a void only by the merchant and only before money arrived; and what a Quern
// balance may pay.
import { describe, expect, it } from 'vitest';
import { refusal } from '../../test/refusal.js';
import type { InvoiceCommand, RecordInvoicePayment } from './commands.js';
import { InvoiceRefusal, decideInvoice, quernPaymentDue } from './decider.js';
import type { InvoiceEvent, InvoiceTerms } from './events.js';
import { type InvoiceState, evolveInvoice, invoiceAmounts, invoiceStatus, isPaidLate } from './state.js';

const CREATED = new Date('2026-11-27T12:00:00.000Z');
const EXPIRES = new Date('2026-11-27T12:15:00.000Z');
const INVOICE_ID = `in_${'a'.repeat(32)}`;
const terms: InvoiceTerms = { amountMlx: '10000', currency: 'MLX', metadata: { order: '42' }, expiresAt: EXPIRES.toISOString() };
const minutes = (n: number) => new Date(CREATED.getTime() + n * 60_000);

/** Decides each command on the state so far and folds what it decided, as the pipeline does. */
function run(commands: Array<[InvoiceCommand, Date]>, from?: InvoiceState): { state: InvoiceState | undefined; events: InvoiceEvent[] } {
  let state = from;
  const events: InvoiceEvent[] = [];
  for (const [command, now] of commands) {
    for (const event of decideInvoice(state, command, now)) {
      events.push(event);
      state = evolveInvoice(state, event);
    }
  }
  return { state, events };
}

const create: [InvoiceCommand, Date] = [
  { type: 'CreateInvoice', data: { invoiceId: INVOICE_ID, merchantUserId: 'merchant', address: 'addr-1', terms } },
  CREATED,
];
const pay = (paymentId: string, amountMlx: bigint, stage: RecordInvoicePayment['data']['stage'], route: 'network' | 'quern' = 'network') =>
  ({ type: 'RecordInvoicePayment', data: { paymentId, route, amountMlx, stage } }) as const;
const expire = { type: 'ExpireInvoice', data: {} } as const;
const statusAfter = (commands: Array<[InvoiceCommand, Date]>) => {
  const { state } = run([create, ...commands]);
  if (!state) throw new Error('no invoice');
  return { status: invoiceStatus(state), amounts: invoiceAmounts(state), late: isPaidLate(state) };
};

describe('invoice status paths', () => {
  it('given an exact payment seen then stable, then open → processing → paid', () => {
    expect(statusAfter([]).status).toBe('open');
    expect(statusAfter([[pay('d1', 10_000n, 'seen'), minutes(1)]]).status).toBe('processing');
    const paid = statusAfter([
      [pay('d1', 10_000n, 'seen'), minutes(1)],
      [pay('d1', 10_000n, 'settled'), minutes(2)],
    ]);
    expect(paid).toEqual({ status: 'paid', amounts: { settledMlx: 10_000n, pendingMlx: 0n, dueMlx: 0n, overpaidMlx: 0n }, late: false });
  });

  it('given part of the amount, then partially_paid with what is missing, and paid once the rest is stable', () => {
    const part = statusAfter([[pay('d1', 4_000n, 'settled'), minutes(1)]]);
    expect(part.status).toBe('partially_paid');
    expect(part.amounts.dueMlx).toBe(6_000n);
    expect(
      statusAfter([
        [pay('d1', 4_000n, 'settled'), minutes(1)],
        [pay('d2', 6_000n, 'seen'), minutes(2)],
      ]).status,
    ).toBe('processing');
    expect(
      statusAfter([
        [pay('d1', 4_000n, 'settled'), minutes(1)],
        [pay('d2', 6_000n, 'settled'), minutes(3)],
      ]).status,
    ).toBe('paid');
  });

  it('given part of the amount at the expiry, then expired with what arrived; the rest after it makes it paid late', () => {
    const expired = statusAfter([
      [pay('d1', 4_000n, 'settled'), minutes(1)],
      [expire, EXPIRES],
    ]);
    expect(expired.status).toBe('expired');
    expect(expired.amounts.settledMlx).toBe(4_000n);
    const late = statusAfter([
      [pay('d1', 4_000n, 'settled'), minutes(1)],
      [expire, EXPIRES],
      [pay('d2', 6_000n, 'seen'), minutes(20)],
      [pay('d2', 6_000n, 'settled'), minutes(21)],
    ]);
    expect(late).toMatchObject({ status: 'paid', late: true });
  });

  it('given more than the amount, then paid with the overpayment', () => {
    const over = statusAfter([[pay('d1', 12_500n, 'settled'), minutes(1)]]);
    expect(over).toMatchObject({ status: 'paid', late: false, amounts: { overpaidMlx: 2_500n, dueMlx: 0n } });
  });

  it('given a payment the network refused, then it never counted', () => {
    const refused = statusAfter([
      [pay('d1', 10_000n, 'seen'), minutes(1)],
      [pay('d1', 10_000n, 'failed'), minutes(2)],
    ]);
    expect(refused).toMatchObject({ status: 'open', amounts: { settledMlx: 0n, pendingMlx: 0n } });
  });

  it('given a void invoice, then void; money arriving after it is still recorded', () => {
    const voided = statusAfter([
      [{ type: 'VoidInvoice', data: { merchantUserId: 'merchant' } }, minutes(1)],
      [pay('d1', 10_000n, 'settled'), minutes(2)],
    ]);
    expect(voided).toMatchObject({ status: 'void', amounts: { settledMlx: 10_000n } });
  });
});

describe('invoice rules', () => {
  it('given the same payment twice, then recorded once; given its id with another amount or route, then refused', () => {
    const { events } = run([create, [pay('d1', 10_000n, 'seen'), minutes(1)], [pay('d1', 10_000n, 'seen'), minutes(2)]]);
    expect(events.map((event) => event.type)).toEqual(['InvoiceCreated', 'InvoicePaymentSeen']);
    const { state } = run([create, [pay('d1', 10_000n, 'seen'), minutes(1)]]);
    expect(refusal(() => decideInvoice(state, pay('d1', 9_999n, 'settled'), minutes(2)))).toMatchObject({ code: 'CONFLICT' });
    expect(refusal(() => decideInvoice(state, pay('d1', 10_000n, 'settled', 'quern'), minutes(2)))).toMatchObject({ code: 'CONFLICT' });
    const settled = run([[pay('d1', 10_000n, 'settled'), minutes(2)]], state).state;
    expect(decideInvoice(settled, pay('d1', 10_000n, 'settled'), minutes(3))).toEqual([]);
    expect(refusal(() => decideInvoice(settled, pay('d1', 10_000n, 'failed'), minutes(3)))).toMatchObject({ code: 'CONFLICT' });
  });

  it('given the expiry job, then nothing before its time, nothing while a payment seen in time settles, nothing once paid', () => {
    const { state } = run([create]);
    expect(decideInvoice(state, expire, minutes(14))).toEqual([]);
    expect(decideInvoice(state, expire, EXPIRES).map((event) => event.type)).toEqual(['InvoiceExpired']);
    const settling = run([[pay('d1', 10_000n, 'seen'), minutes(14)]], state).state;
    expect(decideInvoice(settling, expire, minutes(20))).toEqual([]);
    const paid = run([[pay('d1', 10_000n, 'settled'), minutes(16)]], settling).state;
    expect(decideInvoice(paid, expire, minutes(20))).toEqual([]);
    expect(paid && isPaidLate(paid)).toBe(false);
  });

  it('given a void, then only by its merchant, only before money arrived, and not once expired', () => {
    const { state } = run([create]);
    const voidBy = (merchantUserId: string) => ({ type: 'VoidInvoice', data: { merchantUserId } }) as const;
    expect(refusal(() => decideInvoice(state, voidBy('someone-else'), minutes(1)))).toMatchObject({ code: 'NOT_FOUND' });
    expect(decideInvoice(state, voidBy('merchant'), minutes(1)).map((event) => event.type)).toEqual(['InvoiceVoided']);
    const seen = run([[pay('d1', 1n, 'seen'), minutes(1)]], state).state;
    expect(refusal(() => decideInvoice(seen, voidBy('merchant'), minutes(2)))).toMatchObject({ reason: 'hasPayments', code: 'CONFLICT' });
    const expired = run([[expire, EXPIRES]], state).state;
    expect(refusal(() => decideInvoice(expired, voidBy('merchant'), minutes(20)))).toBeInstanceOf(InvoiceRefusal);
  });

  it('given a creation, then its terms are recorded once; a reused id, a zero amount or a past expiry is refused', () => {
    const { state, events } = run([create]);
    expect(events[0]).toEqual({
      type: 'InvoiceCreated',
      data: { invoiceId: INVOICE_ID, merchantUserId: 'merchant', address: 'addr-1', ...terms, createdAt: CREATED.toISOString() },
    });
    expect(refusal(() => decideInvoice(state, create[0], CREATED))).toMatchObject({ code: 'CONFLICT' });
    const withTerms = (changed: Partial<InvoiceTerms>): InvoiceCommand => ({
      type: 'CreateInvoice',
      data: { invoiceId: INVOICE_ID, merchantUserId: 'merchant', address: 'addr-1', terms: { ...terms, ...changed } },
    });
    expect(refusal(() => decideInvoice(undefined, withTerms({ amountMlx: '0' }), CREATED))).toMatchObject({
      messageKey: 'errors:invalidAmount',
    });
    expect(refusal(() => decideInvoice(undefined, withTerms({ expiresAt: CREATED.toISOString() }), CREATED))).toMatchObject({
      code: 'VALIDATION',
    });
  });

  it('given Pay with Quern, then the amount missing while open or partly paid and in time; otherwise refused', () => {
    const { state } = run([create]);
    expect(quernPaymentDue(state, minutes(1))).toBe(10_000n);
    const part = run([[pay('d1', 4_000n, 'settled'), minutes(1)]], state).state;
    expect(quernPaymentDue(part, minutes(2))).toBe(6_000n);
    expect(refusal(() => quernPaymentDue(part, EXPIRES))).toMatchObject({ reason: 'notPayable' });
    const processing = run([[pay('d2', 6_000n, 'seen'), minutes(2)]], part).state;
    expect(refusal(() => quernPaymentDue(processing, minutes(3)))).toMatchObject({ reason: 'notPayable' });
    expect(refusal(() => quernPaymentDue(undefined, minutes(3)))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the status each event carries', () => {
  it('given a partial payment, the rest seen, stable and an expiry, then each event names the status it leads to', () => {
    const { events } = run([
      create,
      [pay('d1', 4_000n, 'settled'), minutes(1)],
      [pay('d2', 6_000n, 'seen'), minutes(2)],
      [pay('d2', 6_000n, 'failed'), minutes(3)],
      [expire, minutes(16)],
    ]);
    expect(events.map((event) => [event.type, ...('status' in event.data ? [event.data.previousStatus, event.data.status] : [])])).toEqual([
      ['InvoiceCreated'],
      ['InvoicePaymentSettled', 'open', 'partially_paid'],
      ['InvoicePaymentSeen', 'partially_paid', 'processing'],
      ['InvoicePaymentFailed', 'processing', 'partially_paid'],
      ['InvoiceExpired', 'partially_paid', 'expired'],
    ]);
  });
});

describe('a refusal recorded before the sighting', () => {
  it('given a deposit failed before it was seen, then it stays failed, the late sighting records nothing and the invoice is open', () => {
    const { state, events } = run([create, [pay('d1', 4_000n, 'failed'), minutes(1)], [pay('d1', 4_000n, 'seen'), minutes(2)]]);
    expect(events.map((event) => event.type)).toEqual(['InvoiceCreated', 'InvoicePaymentFailed']);
    expect(state && invoiceStatus(state)).toBe('open');
    expect(state?.payments.get('d1')).toMatchObject({ stage: 'failed', amountMlx: 4_000n, route: 'network' });
  });
});

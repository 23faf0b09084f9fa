// Proves a payment link's rules (ADR 084): created once with its slug and amount, turned off and
// on only by its merchant (twice is no change), and what a visitor pays: a fixed link's own
// amount, an open link's typed amount within its bounds, nothing through a link that is off.
import { describe, expect, it } from 'vitest';
import { AppError, isRefusal } from '../shared/errors.js';
import type { PaymentLinkCommand } from './commands.js';
import { decidePaymentLink, priceForVisitor } from './decider.js';
import type { PaymentLinkAmount, PaymentLinkEvent } from './events.js';
import { evolvePaymentLink, type PaymentLinkState } from './state.js';

const NOW = new Date('2026-11-28T10:00:00.000Z');
const LINK_ID = `pl_${'b'.repeat(32)}`;
const MERCHANT = 'merchant-1';
const SLUG = 'Ab3_xY9-kLmN';

function run(commands: PaymentLinkCommand[], from?: PaymentLinkState): { state: PaymentLinkState | undefined; events: PaymentLinkEvent[] } {
  let state = from;
  const events: PaymentLinkEvent[] = [];
  for (const command of commands) {
    for (const event of decidePaymentLink(state, command, NOW)) {
      events.push(event);
      state = evolvePaymentLink(state, event);
    }
  }
  return { state, events };
}

const create = (amount: PaymentLinkAmount, description?: string): PaymentLinkCommand => ({
  type: 'CreatePaymentLink',
  data: { linkId: LINK_ID, merchantUserId: MERCHANT, slug: SLUG, amount, ...(description === undefined ? {} : { description }) },
});
const deactivate = (merchantUserId = MERCHANT): PaymentLinkCommand => ({ type: 'DeactivatePaymentLink', data: { merchantUserId } });
const activate = (merchantUserId = MERCHANT): PaymentLinkCommand => ({ type: 'ActivatePaymentLink', data: { merchantUserId } });

const fixedMlx: PaymentLinkAmount = { kind: 'fixed', currency: 'MLX', value: '25000' };
const openUsd: PaymentLinkAmount = { kind: 'open', currency: 'USD', minimum: '500', maximum: '10000' };

const refusedWith = (act: () => unknown): AppError => {
  try {
    act();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

describe('payment link decider', () => {
  it('given no link, when it is created, then it is active with its slug, amount and description', () => {
    const { state, events } = run([create(fixedMlx, 'Coffee')]);
    expect(events.map((event) => event.type)).toEqual(['PaymentLinkCreated']);
    expect(state).toEqual({
      linkId: LINK_ID,
      merchantUserId: MERCHANT,
      slug: SLUG,
      amount: fixedMlx,
      description: 'Coffee',
      active: true,
      createdAt: NOW.toISOString(),
    });
  });

  it('given a link, when it is created again, then it is refused, never merged', () => {
    const { state } = run([create(fixedMlx)]);
    expect(refusedWith(() => decidePaymentLink(state, create(openUsd), NOW)).code).toBe('CONFLICT');
  });

  it('given an open link whose minimum is above its maximum, when it is created, then it is refused', () => {
    const bad: PaymentLinkAmount = { kind: 'open', currency: 'MLX', minimum: '10', maximum: '9' };
    expect(refusedWith(() => decidePaymentLink(undefined, create(bad), NOW)).messageKey).toBe('errors:paymentLinkBoundsInvalid');
  });

  it('given an id or slug of the wrong shape, when a link is created, then it is a programming error', () => {
    expect(() =>
      decidePaymentLink(undefined, { ...create(fixedMlx), data: { ...create(fixedMlx).data, linkId: 'pl_x' } } as PaymentLinkCommand, NOW),
    ).toThrow(/payment link id/);
    expect(() =>
      decidePaymentLink(undefined, { ...create(fixedMlx), data: { ...create(fixedMlx).data, slug: 'a/b' } } as PaymentLinkCommand, NOW),
    ).toThrow(/slug/);
  });

  it('given an active link, when its merchant turns it off and on, then each is one event and twice is no change', () => {
    const { state, events } = run([create(fixedMlx), deactivate(), deactivate()]);
    expect(events.map((event) => event.type)).toEqual(['PaymentLinkCreated', 'PaymentLinkDeactivated']);
    expect(state?.active).toBe(false);
    const again = run([activate(), activate()], state);
    expect(again.events.map((event) => event.type)).toEqual(['PaymentLinkActivated']);
    expect(again.state?.active).toBe(true);
  });

  it('given a link, when another merchant turns it off or on, then it is answered as unknown and nothing changes', () => {
    const { state } = run([create(fixedMlx)]);
    expect(refusedWith(() => decidePaymentLink(state, deactivate('someone-else'), NOW)).messageKey).toBe('errors:paymentLinkNotFound');
    expect(refusedWith(() => decidePaymentLink(state, activate('someone-else'), NOW)).code).toBe('NOT_FOUND');
    expect(refusedWith(() => decidePaymentLink(undefined, deactivate(), NOW)).code).toBe('NOT_FOUND');
  });
});

describe('what a visitor pays', () => {
  const fixed = run([create(fixedMlx)]).state as PaymentLinkState;
  const open = run([create(openUsd)]).state as PaymentLinkState;
  const unbounded = run([create({ kind: 'open', currency: 'MLX' })]).state as PaymentLinkState;

  it("given a fixed link, then the visitor pays the link's amount whatever they send", () => {
    expect(priceForVisitor(fixed, undefined)).toEqual({ currency: 'MLX', units: 25000n });
    expect(priceForVisitor(fixed, '1')).toEqual({ currency: 'MLX', units: 25000n });
  });

  it("given an open link, then the visitor's amount within the bounds is the price", () => {
    expect(priceForVisitor(open, '12.50')).toEqual({ currency: 'USD', units: 1250n });
    expect(priceForVisitor(open, '5')).toEqual({ currency: 'USD', units: 500n });
    expect(priceForVisitor(open, '100.00')).toEqual({ currency: 'USD', units: 10000n });
    expect(priceForVisitor(unbounded, '7')).toEqual({ currency: 'MLX', units: 7n });
  });

  it('given an open link, when the amount is missing, not positive, malformed or out of bounds, then it is refused with why', () => {
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(open, undefined)),
        'amountRequired',
      ),
    ).toBe(true);
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(open, '  ')),
        'amountRequired',
      ),
    ).toBe(true);
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(open, '0')),
        'amountInvalid',
      ),
    ).toBe(true);
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(open, '-3')),
        'amountInvalid',
      ),
    ).toBe(true);
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(open, '1.234')),
        'amountInvalid',
      ),
    ).toBe(true);
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(unbounded, '1.5')),
        'amountInvalid',
      ),
    ).toBe(true);
    const below = refusedWith(() => priceForVisitor(open, '4.99'));
    expect(isRefusal(below, 'belowMinimum')).toBe(true);
    expect(below.params).toEqual({ minimum: '5.00 USD' });
    expect(below.code).toBe('VALIDATION');
    const above = refusedWith(() => priceForVisitor(open, '100.01'));
    expect(isRefusal(above, 'aboveMaximum')).toBe(true);
    expect(above.params).toEqual({ maximum: '100.00 USD' });
  });

  it('given a link that is off, then no visitor pays through it, fixed or open', () => {
    const off = run([deactivate()], fixed).state as PaymentLinkState;
    const offOpen = run([deactivate()], open).state as PaymentLinkState;
    expect(
      isRefusal(
        refusedWith(() => priceForVisitor(off, undefined)),
        'inactive',
      ),
    ).toBe(true);
    const refused = refusedWith(() => priceForVisitor(offOpen, '10'));
    expect(refused.messageKey).toBe('errors:paymentLinkInactive');
    expect(refused.code).toBe('CONFLICT');
  });
});

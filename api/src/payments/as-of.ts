/**
 * The merchant's balance and payments as of a moment (ADR 089): `as_of` on `GET /api/v1/balance`
 * and `GET /api/v1/payments/{id}`, and the Payments page's balance at the end of a day. The past
 * is folded from the log (the wallet's stream from a day snapshot, the order's stream from its
 * start); the present comes from the read models, as the list and the balance always have.
 */
import type { Clock, EventStore } from '@quern/core';
import { AppError } from '@quern/core';
import {
  type AsOf,
  balanceOutputOf,
  type BalanceAtDay,
  dayOf,
  endOfDayMs,
  isAfter,
  merchantPaymentOf,
  orderEventTime,
  refuseFutureTime,
} from '@quern/core/as-of';
import { checkoutStream, parseCheckoutOrderId } from '@quern/core/checkout';
import type { Balance, Payment } from '@quern/core/payments';
import { initialOrderStreamState, orderStreamModel, paymentOf, type OrderStreamState } from '@quern/core/refunds';
import { AS_OF_READ_PAGE, getMerchantPayment, getWalletBalance, shopperUsernameOf, walletBalanceAsOf } from '@quern/projections';
import type { Redis } from 'ioredis';

export interface AsOfDeps {
  redis: Redis;
  store: EventStore;
  /** The ledger's clock: "now" for a moment in the future, and for a day not over yet. */
  clock: Clock;
  awaitOwnWrites?: (userId: string) => Promise<void>;
}

const paymentNotFound = () => new AppError('NOT_FOUND', 'errors:paymentNotFound');

/**
 * Refuses a moment that has not come: an instant after now, or a cursor past the log's end (no
 * event at or after it). Answering those with the present would pass off a moving answer as a
 * fixed one. Cursor 0 is before the first event, always in the past.
 */
async function refuseFuture(deps: AsOfDeps, asOf: AsOf): Promise<void> {
  refuseFutureTime(asOf, deps.clock.now().getTime());
  if (asOf.kind !== 'position' || asOf.position === 0n) return;
  const [atOrAfter] = await deps.store.readAll({ after: asOf.position - 1n, maxCount: 1 });
  if (!atOrAfter) throw new AppError('VALIDATION', 'errors:asOfPastTheLog', { as_of: 'errors:asOfPastTheLog' });
}

/** The order's stream folded up to the moment, read in bounded pages. */
async function orderStateAsOf(store: EventStore, intentId: string, asOf: AsOf): Promise<OrderStreamState> {
  let state = initialOrderStreamState();
  for (let fromRevision = 0n; ; ) {
    const page = await store.readStream(checkoutStream(intentId), { fromRevision, maxCount: AS_OF_READ_PAGE });
    for (const recorded of page) {
      const event = orderStreamModel.parse(recorded);
      if (!event) continue;
      if (isAfter(asOf, recorded.position, orderEventTime(event))) return state;
      state = orderStreamModel.evolve(state, event);
    }
    if (page.length < AS_OF_READ_PAGE) return state;
    fromRevision += BigInt(page.length);
  }
}

export function createAsOfReads(deps: AsOfDeps) {
  async function balanceAsOf(merchantUserId: string, asOf: AsOf): Promise<Balance> {
    await refuseFuture(deps, asOf);
    return balanceOutputOf(await walletBalanceAsOf(deps, merchantUserId, asOf));
  }

  return {
    /** The merchant's wallet now (0 and 0 before its first projection), or as of a past moment. */
    async balance(merchantUserId: string, asOf?: AsOf): Promise<Balance> {
      if (asOf) return balanceAsOf(merchantUserId, asOf);
      await deps.awaitOwnWrites?.(merchantUserId);
      return (await getWalletBalance(deps.redis, merchantUserId)) ?? { stable: '0', unstable: '0' };
    },

    /**
     * One of the merchant's payments, now or as of a past moment. Unknown, another merchant's and
     * not yet paid at that moment are one and the same 404.
     */
    async payment(merchantUserId: string, orderId: string, asOf?: AsOf): Promise<Payment> {
      if (!asOf) {
        await deps.awaitOwnWrites?.(merchantUserId);
        const payment = await getMerchantPayment(deps.redis, merchantUserId, orderId);
        if (!payment) throw paymentNotFound();
        return payment;
      }
      await refuseFuture(deps, asOf);
      const order = parseCheckoutOrderId(orderId);
      if (!order) throw paymentNotFound();
      const state = await orderStateAsOf(deps.store, order.intentId, asOf);
      const paid = paymentOf(state, orderId);
      if (!paid || paid.merchantUserId !== merchantUserId) throw paymentNotFound();
      const payment = merchantPaymentOf(state, orderId, merchantUserId, await shopperUsernameOf(deps.redis, paid.shopperUserId));
      if (!payment) throw paymentNotFound();
      return payment;
    },

    /** The balance at the end of a UTC day; for today, the balance now (the day is not over). */
    async balanceAtDay(merchantUserId: string, day: string): Promise<BalanceAtDay> {
      const endMs = endOfDayMs(day);
      const nowMs = deps.clock.now().getTime();
      if (endMs === undefined || day > dayOf(nowMs))
        throw new AppError('VALIDATION', 'errors:asOfInvalidDay', { day: 'errors:asOfInvalidDay' });
      const ms = Math.min(endMs, nowMs);
      const balance = await balanceAsOf(merchantUserId, { kind: 'time', ms });
      return { day, as_of: new Date(ms).toISOString(), balance };
    },
  };
}

// Proves Continue's checks come in the spec's order with the server's message keys: no rate,
// then outside 5–500 USD (empty included, MLX converted first), then a reserve that cannot be
// read (asked only for a valid amount), then a reserve below 500 USD's worth; and that a passing
// check quotes the MLX core's pricing credits.
import { parseExchangeRate, type ExchangeRate } from '@quern/core/wallet';
import { describe, expect, it } from 'vitest';
import type { AmountEntry } from './buyAmount.js';
import { checkPurchase, type PurchaseCheckDeps } from './buyChecks.js';

const parsed = parseExchangeRate('0.0000125');
if (!parsed.ok) throw new Error('rate');
/** 1 USD = 80,000 MLX: the largest purchase (500 USD) needs 40,000,000 MLX in the reserve. */
const RATE: ExchangeRate = parsed.rate;
const ENOUGH = 40_000_000n;

const usd = (text: string): AmountEntry => ({ currency: 'USD', text });
const mlx = (text: string): AmountEntry => ({ currency: 'MLX', text });

function deps(overrides: Partial<PurchaseCheckDeps> = {}): PurchaseCheckDeps & { reserveAsked: () => number } {
  let asked = 0;
  return {
    rate: async () => RATE,
    reserveMlx: async () => {
      asked += 1;
      return ENOUGH;
    },
    ...overrides,
    reserveAsked: () => asked,
  };
}

describe('checkPurchase', () => {
  it('given no rate, or a rate that cannot be read, then the rate message comes first, whatever the amount', async () => {
    for (const rate of [async () => null, async () => Promise.reject(new Error('down'))]) {
      const checks = deps({ rate });
      expect(await checkPurchase(usd('4'), checks)).toEqual({ ok: false, messageKey: 'errors:exchangeRateUnavailable' });
      expect(checks.reserveAsked()).toBe(0);
    }
  });

  it.each([['4.99'], ['500.01'], [''], ['0']])('given %j USD, then the limits message and the reserve is not asked', async (text) => {
    const checks = deps();
    expect(await checkPurchase(usd(text), checks)).toEqual({ ok: false, messageKey: 'errors:purchaseAmountOutOfRange' });
    expect(checks.reserveAsked()).toBe(0);
  });

  it('given MLX, then the limits apply to its price: 399,200 MLX costs 4.99 USD, 399,201 MLX 5.00 USD (which buys 400,000)', async () => {
    expect(await checkPurchase(mlx('399200'), deps())).toEqual({ ok: false, messageKey: 'errors:purchaseAmountOutOfRange' });
    expect(await checkPurchase(mlx('399201'), deps())).toMatchObject({ ok: true, quote: { usdCents: 500n, mlx: 400_000n } });
    expect(await checkPurchase(mlx('40000001'), deps())).toEqual({ ok: false, messageKey: 'errors:purchaseAmountOutOfRange' });
  });

  it('given a reserve that cannot be read, then the reserve message', async () => {
    const checks = deps({ reserveMlx: async () => Promise.reject(new Error('503')) });
    expect(await checkPurchase(usd('10'), checks)).toEqual({ ok: false, messageKey: 'errors:reserveBalanceUnavailable' });
  });

  it('given a reserve one MLX short of 500 USD’s worth, then unavailable even for a small amount; exactly enough passes', async () => {
    const short = deps({ reserveMlx: async () => ENOUGH - 1n });
    expect(await checkPurchase(usd('5'), short)).toEqual({ ok: false, messageKey: 'errors:purchaseUnavailable' });
    expect(await checkPurchase(usd('5'), deps({ reserveMlx: async () => ENOUGH }))).toMatchObject({ ok: true });
  });

  it('given the limits themselves, then both pass with the MLX core prices them at', async () => {
    expect(await checkPurchase(usd('5'), deps())).toEqual({ ok: true, quote: { usdCents: 500n, mlx: 400_000n, rate: RATE } });
    expect(await checkPurchase(usd('500.00'), deps())).toEqual({ ok: true, quote: { usdCents: 50_000n, mlx: 40_000_000n, rate: RATE } });
  });
});

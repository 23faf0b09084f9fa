// Proves the millix payment URI (ADR 079): an address alone, with a whole-MLX amount, and with a percent-encoded label and message; every URI written reads back as the same request; and a reader refuses another scheme, a bad address, a fractional, zero, signed or too large amount, a repeated parameter, broken percent-encoding and an unknown `req-` parameter, while it ignores other unknown parameters.
import { describe, expect, it } from 'vitest';
import { testAddress } from '../../test/wallet-fixtures.js';
import { MLX_TOTAL_SUPPLY } from './money.js';
import { parsePaymentUri, toPaymentUri } from './payment-uri.js';

const address = testAddress(7);

describe('the millix payment URI', () => {
  it('given an address, an amount and words, when written, then BIP 21 form with whole MLX and %20 for spaces', () => {
    expect(toPaymentUri({ address })).toBe(`millix:${address}`);
    expect(toPaymentUri({ address, amountMlx: 12_500n })).toBe(`millix:${address}?amount=12500`);
    expect(toPaymentUri({ address, amountMlx: 1n, label: 'Café Ñandú', message: 'Order #7 & more' })).toBe(
      `millix:${address}?amount=1&label=Caf%C3%A9%20%C3%91and%C3%BA&message=Order%20%237%20%26%20more`,
    );
  });

  it('given every URI written, when read, then the same request comes back', () => {
    for (const request of [
      { address },
      { address, amountMlx: 12_500n },
      { address, amountMlx: MLX_TOTAL_SUPPLY, label: 'Shop', message: 'a=b&c d' },
      { address: testAddress(3, 'testnet'), message: '100% ☕' },
    ]) {
      expect(parsePaymentUri(toPaymentUri(request))).toEqual({ ok: true, request });
    }
    expect(parsePaymentUri(`MILLIX:${address}?amount=5&utm=x`)).toEqual({ ok: true, request: { address, amountMlx: 5n } });
  });

  it('given a malformed URI, when read, then it is refused', () => {
    for (const text of [
      `bitcoin:${address}`,
      `millix:${address.slice(0, -1)}`,
      'millix:',
      `millix:${address}?amount=1.5`,
      `millix:${address}?amount=0`,
      `millix:${address}?amount=-5`,
      `millix:${address}?amount=${MLX_TOTAL_SUPPLY + 1n}`,
      `millix:${address}?amount=1&amount=2`,
      `millix:${address}?message=%E0%A4%A`,
      `millix:${address}?req-expires=1`,
      `millix:${address}?label=${'x'.repeat(201)}`,
    ]) {
      expect(parsePaymentUri(text), text).toEqual({ ok: false });
    }
  });
});

// Proves that the way back kept for a password reset is only ever a fresh, same-site path: a
// foreign, absolute or '//evil' value (stored by this code or planted) reads back as nothing, and
// an old one expires.
import { afterEach, describe, expect, it } from 'vitest';
import { RESET_RETURN_TTL_MS, rememberResetReturn, resetReturnPath } from './resetReturn.js';

const NOW = 1_800_000_000_000;
const CHECKOUT = '/checkout?cart=%5B%5D&price=100000&currency=mlx&to=bob_shop';

afterEach(() => localStorage.clear());

describe('resetReturn', () => {
  it('given a checkout path, then it reads back exactly, query intact, within the hour', () => {
    rememberResetReturn(CHECKOUT, NOW);
    expect(resetReturnPath(NOW + RESET_RETURN_TTL_MS)).toBe(CHECKOUT);
  });

  it('given an hour and more, then nothing', () => {
    rememberResetReturn(CHECKOUT, NOW);
    expect(resetReturnPath(NOW + RESET_RETURN_TTL_MS + 1)).toBeNull();
  });

  it.each([['//evil.example/checkout'], ['https://evil.example/'], ['/\\evil.example'], [null]])(
    'given %j to remember, then what was kept is cleared and nothing reads back',
    (raw) => {
      rememberResetReturn(CHECKOUT, NOW);
      rememberResetReturn(raw, NOW);
      expect(resetReturnPath(NOW)).toBeNull();
    },
  );

  it.each([
    [JSON.stringify({ path: '//evil.example', savedAtMs: NOW })],
    [JSON.stringify({ path: 'https://evil.example', savedAtMs: NOW })],
    [JSON.stringify({ path: CHECKOUT })],
    ['not json'],
  ])('given a planted or broken value %s, then nothing', (stored) => {
    localStorage.setItem('quern.resetReturn', stored);
    expect(resetReturnPath(NOW)).toBeNull();
  });
});

// Proves the hero's Pending rule (ADR 062): incoming minus outgoing with its sign, zero unsigned, the old unstable-only answer shown as before, and unreadable digits refused.
import { describe, expect, it } from 'vitest';
import { pendingFigureOf } from './pendingFigure.js';
import { MINUS_SIGN } from './walletFormat.js';

describe('pendingFigureOf', () => {
  it('given only an outgoing send pending, then Pending is minus its amount plus fee', () => {
    expect(pendingFigureOf({ unstable: '0', pending_incoming: '0', pending_outgoing: '6000' })).toEqual({
      magnitude: '6000',
      sign: MINUS_SIGN,
    });
  });

  it('given a deposit and a send pending, then Pending is their difference, signed', () => {
    expect(pendingFigureOf({ unstable: '5000', pending_incoming: '5000', pending_outgoing: '3000' })).toEqual({
      magnitude: '2000',
      sign: '+',
    });
    expect(pendingFigureOf({ unstable: '0', pending_incoming: '3000', pending_outgoing: '3000' })).toEqual({ magnitude: '0', sign: '' });
  });

  it('given an answer without the pending sums, then unstable is shown; given unreadable digits, then nothing', () => {
    expect(pendingFigureOf({ unstable: '700' })).toEqual({ magnitude: '700', sign: '' });
    expect(pendingFigureOf({ unstable: '0', pending_incoming: '-1', pending_outgoing: '0' })).toBeNull();
    expect(pendingFigureOf({ unstable: '1.5' })).toBeNull();
  });
});

// Proves the point of sale's keypad: typing, no leading zeros, MLX whole only, USD at most two
// decimals, the length caps, backspace and clear, the switch of currency, and the amount sent.
import { describe, expect, it } from 'vitest';
import { amountForServer, isChargeable, type PosCurrency, type PosKey, pressKey, shownAmount, switchCurrency } from './keypad.js';

const type = (keys: PosKey[], currency: PosCurrency, from = ''): string =>
  keys.reduce((amount, key) => pressKey(amount, key, currency), from);

describe('pressKey', () => {
  it('given digits, when typed, then they append in order', () => {
    expect(type(['2', '5', '00'], 'MLX')).toBe('2500');
    expect(type(['1', '2', '.', '5'], 'USD')).toBe('12.5');
  });

  it('given an empty or zero amount, when zeros are typed, then no leading zero is kept', () => {
    expect(type(['0', '00', '0'], 'MLX')).toBe('');
    expect(type(['00', '7'], 'MLX')).toBe('7');
    expect(type(['0', '0', '7'], 'USD')).toBe('7');
  });

  it('given MLX, when the decimal point is pressed, then nothing changes (whole MLX only)', () => {
    expect(type(['1', '.', '5'], 'MLX')).toBe('15');
  });

  it('given USD, when a second point or a third decimal is typed, then it is refused', () => {
    expect(type(['1', '.', '.', '2', '3', '4'], 'USD')).toBe('1.23');
    expect(type(['1', '.', '00', '00'], 'USD')).toBe('1.00');
    expect(type(['1', '.', '5', '00'], 'USD')).toBe('1.50');
  });

  it('given USD and no digit yet, when the point is pressed, then it reads 0.', () => {
    expect(type(['.', '5'], 'USD')).toBe('0.5');
  });

  it('given the longest amount, when another digit is typed, then it is refused', () => {
    expect(type(Array<PosKey>(20).fill('9'), 'MLX')).toBe('9'.repeat(16));
    expect(type([...Array<PosKey>(10).fill('9'), '.', '9', '9'], 'USD')).toBe('9999999.99');
    expect(type(['1', '00', '00', '00', '00', '00', '00', '00', '00'], 'MLX')).toBe(`1${'0'.repeat(15)}`);
  });

  it('given an amount, when backspace and clear are pressed, then they remove one character and everything', () => {
    expect(type(['backspace'], 'USD', '12.5')).toBe('12.');
    expect(type(['backspace'], 'MLX', '')).toBe('');
    expect(type(['clear'], 'MLX', '2500')).toBe('');
  });
});

describe('switchCurrency', () => {
  it('given a USD amount with decimals, when switched to MLX, then the decimals go', () => {
    expect(switchCurrency('12.50', 'MLX')).toBe('12');
    expect(switchCurrency('0.5', 'MLX')).toBe('');
    expect(switchCurrency('2500', 'USD')).toBe('2500');
  });
});

describe('isChargeable and amountForServer', () => {
  it('given zero, nothing or a dangling point, then there is nothing to charge', () => {
    expect(isChargeable('')).toBe(false);
    expect(isChargeable('0.')).toBe(false);
    expect(isChargeable('0.00')).toBe(false);
    expect(isChargeable('12.')).toBe(false);
    expect(isChargeable('0.01')).toBe(true);
    expect(isChargeable('2500')).toBe(true);
  });

  it('given USD, then the server gets two decimals; MLX goes as typed', () => {
    expect(amountForServer('12.5', 'USD')).toBe('12.50');
    expect(amountForServer('12', 'USD')).toBe('12.00');
    expect(amountForServer('2500', 'MLX')).toBe('2500');
  });
});

describe('shownAmount', () => {
  it('given nothing typed, then the screen reads 0', () => {
    expect(shownAmount('', 'MLX', 'en')).toBe('0');
    expect(shownAmount('', 'USD', 'es')).toBe('0');
  });

  it("given MLX, then it is grouped in the page's language, four digits together in Spanish", () => {
    expect(shownAmount('2500', 'MLX', 'en')).toBe('2,500');
    expect(shownAmount('2500', 'MLX', 'es')).toBe('2500');
    expect(shownAmount('1250000', 'MLX', 'es')).toBe('1.250.000');
  });

  it("given USD, then the whole part is grouped and the decimals typed so far follow the language's mark", () => {
    expect(shownAmount('1234.5', 'USD', 'en')).toBe('1,234.5');
    expect(shownAmount('1234.50', 'USD', 'es')).toBe('1234,50');
    expect(shownAmount('12345.05', 'USD', 'es')).toBe('12.345,05');
    expect(shownAmount('0.', 'USD', 'es')).toBe('0,');
    expect(shownAmount('7', 'USD', 'en')).toBe('7');
  });
});

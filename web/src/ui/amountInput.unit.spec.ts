// Proves the amount input keeps digits only (no letters, signs, decimals or leading zeros, at
// most the supply's 16 digits), groups them in the language's thousands separator, and maps the
// caret so it stays after the digit it followed.
import { describe, expect, it } from 'vitest';
import { AMOUNT_DIGITS_MAX, caretAfterDigits, formatAmountDigits, readAmountInput } from './amountInput.js';

describe('readAmountInput', () => {
  it.each([
    ['1234567', '1234567'],
    ['1,234,567', '1234567'],
    ['1.234.567', '1234567'],
    ['12a3-4 5', '12345'],
    ['0007', '7'],
    ['0', '0'],
    ['000', '0'],
    ['', ''],
    ['abc', ''],
    ['-5', '5'],
  ])('given %j typed, then the digits are %j', (typed, digits) => {
    expect(readAmountInput(typed).digits).toBe(digits);
  });

  it('given more digits than the supply has, then the extra ones are dropped', () => {
    expect(AMOUNT_DIGITS_MAX).toBe(16);
    expect(readAmountInput('12345678901234567890').digits).toBe('1234567890123456');
  });

  it('given the caret after the 4th digit of "1,2345" (a digit typed mid-group), then 4 digits precede it', () => {
    expect(readAmountInput('1,2345', 5)).toEqual({ digits: '12345', digitsBeforeCaret: 4 });
  });

  it('given leading zeros before the caret, then they do not count', () => {
    expect(readAmountInput('007', 2)).toEqual({ digits: '7', digitsBeforeCaret: 0 });
  });
});

describe('formatAmountDigits', () => {
  it('given digits, then they are grouped in thousands for the language', () => {
    expect(formatAmountDigits('1234567', 'en')).toBe('1,234,567');
    expect(formatAmountDigits('1234567', 'es')).toBe('1.234.567');
    expect(formatAmountDigits('999', 'en')).toBe('999');
    expect(formatAmountDigits('', 'en')).toBe('');
  });
});

describe('caretAfterDigits', () => {
  it('given a grouped number, then the caret lands right after the n-th digit', () => {
    expect(caretAfterDigits('12,345', 0)).toBe(0);
    expect(caretAfterDigits('12,345', 2)).toBe(2);
    expect(caretAfterDigits('12,345', 3)).toBe(4);
    expect(caretAfterDigits('12,345', 5)).toBe(6);
    expect(caretAfterDigits('12,345', 9)).toBe(6);
  });
});

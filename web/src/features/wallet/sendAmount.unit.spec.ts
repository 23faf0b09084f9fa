// Proves the send amount is read only as a whole number, in bare digits or grouped in thousands
// the way the page's language groups them, that anything else is refused rather than
// reinterpreted, and that editing a grouped amount regroups it without changing its value.
import { describe, expect, it } from 'vitest';
import { editAmountText, parseAmountText } from './sendAmount.js';

describe('parseAmountText', () => {
  it.each([
    ['12500', 'en', '12500'],
    ['12,500', 'en', '12500'],
    ['1,234,567', 'en', '1234567'],
    ['999', 'en', '999'],
    ['007', 'en', '7'],
    [' 12,500 ', 'en', '12500'],
    ['12500', 'es', '12500'],
    ['12.500', 'es', '12500'],
    ['1.234', 'es', '1234'],
    ['1.234.567', 'es', '1234567'],
    ['9000000000000000', 'en', '9000000000000000'],
  ] as const)('given %j in %s, then the amount is %s', (text, language, digits) => {
    expect(parseAmountText(text, language)).toEqual({ ok: true, digits });
  });

  it.each([
    ['12.5', 'en'],
    ['12,5', 'en'],
    ['1x', 'en'],
    ['1,00', 'en'],
    [',100', 'en'],
    ['100,', 'en'],
    ['1,0000', 'en'],
    ['1234,567', 'en'],
    ['12.500', 'en'],
    ['1,000.5', 'en'],
    ['1 000', 'en'],
    ['-5', 'en'],
    ['+5', 'en'],
    ['1e3', 'en'],
    ['12,500', 'es'],
    ['12,5', 'es'],
    ['12.5', 'es'],
    ['1.00', 'es'],
    ['.100', 'es'],
    ['1x', 'es'],
  ] as const)('given %j in %s, then it is refused as not a whole amount', (text, language) => {
    expect(parseAmountText(text, language)).toEqual({ ok: false, error: 'notWhole' });
  });

  it('given nothing, zero or more than the supply, then each says why', () => {
    expect(parseAmountText('', 'en')).toEqual({ ok: false, error: 'empty' });
    expect(parseAmountText('  ', 'es')).toEqual({ ok: false, error: 'empty' });
    expect(parseAmountText('0', 'en')).toEqual({ ok: false, error: 'zero' });
    expect(parseAmountText('000', 'es')).toEqual({ ok: false, error: 'zero' });
    expect(parseAmountText('9000000000000001', 'en')).toEqual({ ok: false, error: 'tooLarge' });
    expect(parseAmountText('9,000,000,000,000,001', 'en')).toEqual({ ok: false, error: 'tooLarge' });
  });
});

describe('editAmountText', () => {
  it('given a valid amount typed, then it shows grouped for the language, same digits', () => {
    expect(editAmountText('125', '1250', 'en')).toEqual({ text: '1,250', digits: '1250' });
    // Spanish leaves four digits together (RAE): 1250, but 12.500.
    expect(editAmountText('125', '1250', 'es')).toEqual({ text: '1250', digits: '1250' });
    expect(editAmountText('1250', '12500', 'es')).toEqual({ text: '12.500', digits: '12500' });
  });

  it('given a digit added to or removed from a grouped amount, then the digits are regrouped', () => {
    expect(editAmountText('1,250', '1,2500', 'en')).toEqual({ text: '12,500', digits: '12500' });
    expect(editAmountText('1,000', '1,00', 'en')).toEqual({ text: '100', digits: '100' });
    expect(editAmountText('1.250', '1.2500', 'es')).toEqual({ text: '12.500', digits: '12500' });
    expect(editAmountText('1,000', '1000', 'en')).toEqual({ text: '1,000', digits: '1000' });
  });

  it('given a separator or anything else typed by the person, then the text stays exactly as typed', () => {
    expect(editAmountText('12', '12.', 'en')).toEqual({ text: '12.', digits: null });
    expect(editAmountText('12.', '12.5', 'en')).toEqual({ text: '12.5', digits: null });
    expect(editAmountText('12,', '12,5', 'en')).toEqual({ text: '12,5', digits: null });
    expect(editAmountText('1', '1x', 'en')).toEqual({ text: '1x', digits: null });
    expect(editAmountText('1,234', '1,234,', 'en')).toEqual({ text: '1,234,', digits: null });
    expect(editAmountText('1,234', '1,234.5', 'en')).toEqual({ text: '1,234.5', digits: null });
    expect(editAmountText('12', '12,', 'es')).toEqual({ text: '12,', digits: null });
    expect(editAmountText('1', '1,00', 'en')).toEqual({ text: '1,00', digits: null });
  });
});

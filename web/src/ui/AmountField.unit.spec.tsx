// Proves the amount field shows what is typed grouped in thousands (in the language on screen),
// ignores anything but digits, hands the bare digits to the form, and keeps the caret in place.
import { act, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { byLabel, typeInto } from '../../test/dom.js';
import { render, type Rendered, type TestLanguage } from '../../test/renderForTest.js';
import { AmountField } from './AmountField.js';

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

async function renderField(language: TestLanguage = 'en', errorText: string | null = null) {
  const seen = vi.fn<(digits: string) => void>();
  function Harness() {
    const [digits, setDigits] = useState('');
    return (
      <AmountField
        id="amount"
        label="Amount"
        hint="Whole MLX, digits only."
        digits={digits}
        onDigitsChange={(next) => {
          seen(next);
          setDigits(next);
        }}
        language={language}
        errorText={errorText}
      />
    );
  }
  rendered = await render(<Harness />, { language });
  return { input: byLabel(rendered.container, 'Amount'), seen };
}

describe('AmountField', () => {
  it('given digits typed, then they show grouped and the form receives them bare', async () => {
    const { input, seen } = await renderField();
    typeInto(input, '1234567');
    expect(input.value).toBe('1,234,567');
    expect(seen).toHaveBeenLastCalledWith('1234567');
    expect(input.getAttribute('inputmode')).toBe('numeric');
  });

  it('given Spanish, then the thousands separator is a dot', async () => {
    const { input, seen } = await renderField('es');
    typeInto(input, '1234567');
    expect(input.value).toBe('1.234.567');
    expect(seen).toHaveBeenLastCalledWith('1234567');
  });

  it('given letters, signs and a decimal point, then only the digits stay', async () => {
    const { input, seen } = await renderField();
    typeInto(input, '-12.5abc');
    expect(input.value).toBe('125');
    expect(seen).toHaveBeenLastCalledWith('125');
    typeInto(input, 'x');
    expect(input.value).toBe('');
  });

  it('given a digit typed in the middle, then the caret stays right after it', async () => {
    const { input } = await renderField();
    typeInto(input, '1000');
    input.focus();
    // The person puts the caret after "1" of "1,000" and types 5: the browser shows "15,000".
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    act(() => {
      setValue?.call(input, '15,000');
      input.setSelectionRange(2, 2);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(input.value).toBe('15,000');
    expect(input.selectionStart).toBe(2);
    act(() => {
      setValue?.call(input, '15,3000');
      input.setSelectionRange(4, 4);
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(input.value).toBe('153,000');
    expect(input.selectionStart).toBe(3);
  });

  it('given an error, then the input is marked invalid and described by it', async () => {
    const { input } = await renderField('en', 'Please enter a whole number of MLX');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe('amount-hint amount-error');
  });
});

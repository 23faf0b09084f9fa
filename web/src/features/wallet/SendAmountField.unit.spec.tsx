// Proves the send amount field shows what was typed, regroups a valid amount as digits are typed
// or deleted (keeping the caret after the digit it followed), and leaves anything else as typed.
import { act, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { byLabel, typeInto } from '../../../test/dom.js';
import { render, type Rendered, type TestLanguage } from '../../../test/renderForTest.js';
import { SendAmountField } from './SendAmountField.js';

let rendered: Rendered | undefined;
afterEach(() => rendered?.unmount());

async function renderField(language: TestLanguage = 'en') {
  function Harness() {
    const [text, setText] = useState('');
    return (
      <SendAmountField
        id="amount"
        label="Amount"
        hint="Whole MLX"
        text={text}
        onTextChange={setText}
        language={language}
        errorText={null}
      />
    );
  }
  rendered = await render(<Harness />, { language });
  return byLabel(rendered.container, 'Amount');
}

/** As the browser reports an edit: the new text and where the caret is. */
function edit(input: HTMLInputElement, value: string, caret: number) {
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  act(() => {
    setValue?.call(input, value);
    input.setSelectionRange(caret, caret);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('SendAmountField', () => {
  it('given a digit typed in the middle of a grouped amount, then it is regrouped and the caret stays after it', async () => {
    const input = await renderField();
    typeInto(input, '1000');
    expect(input.value).toBe('1,000');
    input.focus();
    edit(input, '1,0500', 4);
    expect(input.value).toBe('10,500');
    expect(input.selectionStart).toBe(4);
  });

  it('given Spanish digits typed one by one, then they show with dots', async () => {
    const input = await renderField('es');
    for (const typed of ['1', '12', '125', '1250']) typeInto(input, typed);
    // Spanish leaves four digits together (RAE), then groups with dots.
    expect(input.value).toBe('1250');
    typeInto(input, '12500');
    expect(input.value).toBe('12.500');
  });

  it('given a decimal point or a letter, then the text stays exactly as typed', async () => {
    const input = await renderField();
    for (const typed of ['1', '12', '12.', '12.5']) typeInto(input, typed);
    expect(input.value).toBe('12.5');
    typeInto(input, '1x');
    expect(input.value).toBe('1x');
  });
});

/**
 * The amount input: accepts digits only and shows them grouped in thousands as they are typed,
 * in the separator of the language on screen. The parent holds the bare digits.
 */
import { useLayoutEffect, useReducer, useRef } from 'react';
import type { Language } from '../i18n/languages.js';
import { caretAfterDigits, formatAmountDigits, readAmountInput } from './amountInput.js';

interface AmountFieldProps {
  id: string;
  label: string;
  hint: string;
  digits: string;
  onDigitsChange(digits: string): void;
  language: Language;
  errorText: string | null;
}

export function AmountField({ id, label, hint, digits, onDigitsChange, language, errorText }: AmountFieldProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);
  // A keystroke that changes no digit (a letter) still needs a render to put the caret back
  // where it was, after React resets the text.
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const text = formatAmountDigits(digits, language);

  useLayoutEffect(() => {
    const input = inputRef.current;
    if (caret.current === null || !input || document.activeElement !== input) return;
    input.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  });

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <p className="field-hint" id={hintId}>
        {hint}
      </p>
      <input
        ref={inputRef}
        id={id}
        name={id}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={text}
        onChange={(event) => {
          const typed = readAmountInput(event.target.value, event.target.selectionStart);
          caret.current = caretAfterDigits(formatAmountDigits(typed.digits, language), typed.digitsBeforeCaret);
          onDigitsChange(typed.digits);
          rerender();
        }}
        aria-invalid={errorText ? true : undefined}
        aria-describedby={errorText ? `${hintId} ${errorId}` : hintId}
      />
      {errorText ? (
        <p className="field-error" id={errorId}>
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

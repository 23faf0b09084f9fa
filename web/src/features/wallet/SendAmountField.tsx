/**
 * The send form's amount input: shows exactly what was typed, grouped in thousands (the language's
 * separator) once it is a valid whole amount. The parent holds the text; anything that is not a
 * whole amount stays on screen as typed, with the parent's message under it.
 */
import { useLayoutEffect, useRef } from 'react';
import type { Language } from '../../i18n/languages.js';
import { caretAfterDigits } from '../../ui/amountInput.js';
import { digitsBefore, editAmountText } from './sendAmount.js';

interface SendAmountFieldProps {
  id: string;
  label: string;
  hint: string;
  text: string;
  onTextChange(text: string): void;
  language: Language;
  errorText: string | null;
}

export function SendAmountField({ id, label, hint, text, onTextChange, language, errorText }: SendAmountFieldProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const caret = useRef<number | null>(null);

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
          const typed = event.target.value;
          const next = editAmountText(text, typed, language);
          // Regrouping moves separators: the caret stays after the digit it followed.
          if (next.text !== typed) caret.current = caretAfterDigits(next.text, digitsBefore(typed, event.target.selectionStart));
          onTextChange(next.text);
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

import { type ChangeEvent, type InputHTMLAttributes, useLayoutEffect, useRef } from 'react';
import { takeTypedBeforeHydration } from '../app/typedBeforeHydration.js';
import './forms.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValueChange(value: string): void;
  /** A short rule shown under the label (for example the username format). */
  hint?: string | undefined;
  invalid?: boolean;
  /** The field's own error text; when absent an invalid field points at `describedBy`. */
  errorText?: string | null;
  /** The id of a message elsewhere (the form's alert) that explains why the field is invalid. */
  describedBy?: string;
}

/** A labelled input whose hint and error are announced with it (aria-invalid, aria-describedby). */
export function TextField({ id, label, value, onValueChange, hint, invalid = false, errorText, describedBy, ...input }: TextFieldProps) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const descriptions = [hint ? hintId : null, errorText ? errorId : invalid ? (describedBy ?? null) : null].filter(Boolean);
  const inputRef = useRef<HTMLInputElement>(null);
  // Before the first paint after mounting: a prerendered field keeps what was typed into it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount, when the field hydrates
  useLayoutEffect(() => {
    const typed = takeTypedBeforeHydration(inputRef.current);
    if (typeof typed === 'string' && typed !== value) onValueChange(typed);
  }, []);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        ref={inputRef}
        id={id}
        name={id}
        value={value}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onValueChange(event.target.value)}
        aria-invalid={invalid || Boolean(errorText) || undefined}
        aria-describedby={descriptions.length > 0 ? descriptions.join(' ') : undefined}
        {...input}
      />
      {errorText ? (
        <p className="field-error" id={errorId}>
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

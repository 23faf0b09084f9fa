import { useHydrated } from './useHydrated.js';
import './forms.css';

/**
 * Disabled while the form submits (the spec's isSubmitting flag), saying so to screen readers.
 * Also disabled, but drawn as usual, until a prerendered page has hydrated: before that a click
 * would submit the form natively, fields in the URL, instead of through the app.
 */
export function SubmitButton({
  isSubmitting,
  label,
  busyLabel,
  disabled = false,
}: {
  isSubmitting: boolean;
  label: string;
  busyLabel: string;
  /** The form's own reason to refuse a submit (an input it can already tell is wrong). */
  disabled?: boolean;
}) {
  const hydrated = useHydrated();
  return (
    <button
      type="submit"
      className="button button-primary button-block"
      disabled={isSubmitting || !hydrated || disabled}
      data-waiting={hydrated ? undefined : true}
      aria-busy={isSubmitting || undefined}
    >
      {isSubmitting ? busyLabel : label}
    </button>
  );
}

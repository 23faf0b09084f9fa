import './forms.css';

/** Disabled while the form submits (the spec's isSubmitting flag), saying so to screen readers. */
export function SubmitButton({ isSubmitting, label, busyLabel }: { isSubmitting: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" className="button button-primary button-block" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
      {isSubmitting ? busyLabel : label}
    </button>
  );
}

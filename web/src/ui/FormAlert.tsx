import './forms.css';

/** A message announced when it appears: errors as alerts, confirmations as polite status. */
export function FormAlert({ id, kind, children }: { id?: string; kind: 'error' | 'success'; children: React.ReactNode }) {
  return (
    <p id={id} className={`form-alert form-alert-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

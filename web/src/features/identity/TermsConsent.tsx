/**
 * The terms checkbox with a summary of the terms in a modal dialog. The spec does not require
 * the box to be ticked, so it only records the user's acknowledgement on screen.
 */
import { useLayoutEffect, useRef } from 'react';
import { takeTypedBeforeHydration } from '../../app/typedBeforeHydration.js';
import { useHydrated } from '../../ui/useHydrated.js';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

const termsPoints = ['cancel', 'refund', 'refundMethod', 'minors', 'law'] as const;

function TermsDialog({ dialogRef }: { dialogRef: React.RefObject<HTMLDialogElement | null> }) {
  const { t } = useTranslation('identity');
  const close = () => dialogRef.current?.close();
  return (
    // A native modal <dialog> traps focus, closes on Escape and restores focus to the opener.
    <dialog ref={dialogRef} className="dialog" aria-labelledby="terms-title">
      <h2 id="terms-title">{t('terms.title')}</h2>
      <p>{t('terms.intro')}</p>
      <ul>
        {termsPoints.map((point) => (
          <li key={point}>{t(`terms.points.${point}`)}</li>
        ))}
      </ul>
      <p>
        <Link to="/terms-of-service">{t('terms.fullTerms')}</Link>
      </p>
      <div className="dialog-actions">
        <button type="button" className="button button-primary" onClick={close}>
          {t('terms.close')}
        </button>
      </div>
    </dialog>
  );
}

export function TermsConsent({ accepted, onAcceptedChange }: { accepted: boolean; onAcceptedChange(accepted: boolean): void }) {
  const { t } = useTranslation('identity');
  const dialogRef = useRef<HTMLDialogElement>(null);
  const checkboxRef = useRef<HTMLInputElement>(null);
  const hydrated = useHydrated();
  // A prerendered checkbox keeps a tick given before the page hydrated (typedBeforeHydration.ts).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount, when the field hydrates
  useLayoutEffect(() => {
    const typed = takeTypedBeforeHydration(checkboxRef.current);
    if (typeof typed === 'boolean' && typed !== accepted) onAcceptedChange(typed);
  }, []);
  return (
    <div className="terms-consent">
      <input ref={checkboxRef} id="terms" type="checkbox" checked={accepted} onChange={(event) => onAcceptedChange(event.target.checked)} />
      <label htmlFor="terms">{t('register.acceptTerms')}</label>
      {/* Prerendered, the button has no handler until the app takes over: it waits rather than swallow a click (ADR 023). */}
      <button
        type="button"
        className="link-button"
        onClick={() => dialogRef.current?.showModal()}
        aria-haspopup="dialog"
        disabled={!hydrated}
        data-waiting={hydrated ? undefined : true}
      >
        {t('register.readTerms')}
      </button>
      <TermsDialog dialogRef={dialogRef} />
    </div>
  );
}

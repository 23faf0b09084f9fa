/**
 * /contact and /support (spec sections 2, 4, 5 and 8): Subject, Details (and 'Your email' on
 * /contact), the captcha, Send. The fields are checked with the server's schema first; without a
 * solved captcha the form names the widget in use ('Verify reCAPTCHA', or 'Verify ALTCHA' for the
 * built-in one) and sends nothing. Then the captcha check
 * ('reCAPTCHA verification failed' when it does not pass), then the send: the Success sheet with
 * the server's message and Ok, or the Error sheet with the server's message and 'Try again'.
 */
import { contactFormFields, supportFormFields } from '@quern/core/contact';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { firstIssuePerField } from '../../ui/formErrors.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useAuth } from '../auth/AuthProvider.js';
import { Modal } from '../../ui/Modal.js';
import { CaptchaField, type CaptchaHandle } from './CaptchaField.js';
import './contact.css';

type Field = 'from' | 'subject' | 'text';
type Outcome = { kind: 'success' | 'error'; message: string } | null;

function ResultSheet({ outcome, onClose }: { outcome: Outcome; onClose(): void }) {
  const { t } = useTranslation('contact');
  const titleId = useId();
  const bodyId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal
      open={outcome !== null}
      onClose={onClose}
      initialFocus={buttonRef}
      role="alertdialog"
      labelledBy={titleId}
      describedBy={bodyId}
      className={`contact-sheet contact-sheet-${outcome?.kind ?? 'closed'}`}
    >
      <h2 id={titleId}>{outcome?.kind === 'success' ? t('successTitle') : t('errorTitle')}</h2>
      <p id={bodyId}>{outcome?.message}</p>
      <div className="modal-actions">
        <button type="button" className="button button-primary" onClick={onClose} ref={buttonRef}>
          {outcome?.kind === 'success' ? t('ok') : t('tryAgain')}
        </button>
      </div>
    </Modal>
  );
}

function MessageForm({ form }: { form: 'contact' | 'support' }) {
  const { t } = useTranslation('contact');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const { state: auth } = useAuth();
  useDocumentTitle(form === 'contact' ? t('contactTitle') : t('supportTitle'));
  const [from, setFrom] = useState(auth.email ?? '');
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const captchaRef = useRef<CaptchaHandle>(null);
  // The same question the captcha widget asks (cached): the missing-captcha message names that widget.
  const captchaConfig = useQuery(trpc.contact.captchaConfig.queryOptions());
  const verify = useMutation(trpc.contact.verify.mutationOptions());
  const sendContact = useMutation(trpc.contact.sendContact.mutationOptions());
  const sendSupport = useMutation(trpc.contact.sendSupport.mutationOptions());
  const busy = verify.isPending || sendContact.isPending || sendSupport.isPending;
  const fields: readonly Field[] = form === 'contact' ? ['from', 'subject', 'text'] : ['subject', 'text'];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFormError(null);
    const checked =
      form === 'contact' ? contactFormFields.safeParse({ from, subject, text }) : supportFormFields.safeParse({ subject, text });
    if (!checked.success) {
      setErrors(firstIssuePerField(checked.error.issues, fields));
      return;
    }
    setErrors({});
    if (!captcha) {
      setFormError(messageText(captchaConfig.data?.provider === 'recaptcha' ? 'errors:verifyCaptcha' : 'errors:verifyCaptchaAltcha'));
      return;
    }
    try {
      const check = await verify.mutateAsync({ response: captcha });
      if (!check.success) {
        captchaRef.current?.reset();
        setOutcome({ kind: 'error', message: check.message });
        return;
      }
      const answer =
        form === 'contact'
          ? await sendContact.mutateAsync({ from, subject, text, captcha })
          : await sendSupport.mutateAsync({ userId: auth.id ?? '', subject, text, captcha });
      setSubject('');
      setText('');
      setOutcome({ kind: 'success', message: answer.message });
    } catch (error) {
      const view = toAppErrorView(error);
      setOutcome({ kind: 'error', message: messageText({ key: view.messageKey, params: view.params, fallback: view.message }) });
    }
    // A solution is spent (or refused) by now: the next try solves a new one.
    captchaRef.current?.reset();
  };

  const errorOf = (field: Field) => (errors[field] ? messageText(errors[field]) : null);
  return (
    <section className="card contact-card" aria-labelledby="contact-title">
      <h1 id="contact-title">{form === 'contact' ? t('contactTitle') : t('supportTitle')}</h1>
      <form className="form contact-form" noValidate onSubmit={(event) => void submit(event)}>
        {form === 'contact' ? (
          <TextField
            id="contact-from"
            type="email"
            label={t('yourEmail')}
            value={from}
            onValueChange={setFrom}
            autoComplete="email"
            maxLength={254}
            errorText={errorOf('from')}
          />
        ) : null}
        <TextField
          id="contact-subject"
          label={t('subject')}
          value={subject}
          onValueChange={setSubject}
          maxLength={200}
          errorText={errorOf('subject')}
        />
        <div className="field">
          <label htmlFor="contact-details">{t('details')}</label>
          <textarea
            id="contact-details"
            value={text}
            onChange={(event) => setText(event.target.value)}
            maxLength={5000}
            rows={6}
            aria-invalid={errors.text ? 'true' : undefined}
            aria-describedby={errors.text ? 'contact-details-error' : undefined}
          />
          {errors.text ? (
            <p className="field-error" id="contact-details-error">
              {errorOf('text')}
            </p>
          ) : null}
        </div>
        <CaptchaField ref={captchaRef} onChange={setCaptcha} />
        {formError ? <FormAlert kind="error">{formError}</FormAlert> : null}
        <SubmitButton isSubmitting={busy} label={t('send')} busyLabel={t('sending')} />
      </form>
      <ResultSheet outcome={outcome} onClose={() => setOutcome(null)} />
    </section>
  );
}

export function ContactPage() {
  return <MessageForm form="contact" />;
}

export function SupportPage() {
  return <MessageForm form="support" />;
}

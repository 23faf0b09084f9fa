/**
 * The subscription plan form (spec section 2, "Subscription plan form"; section 5, Plan): name,
 * description, price (digits, grouped as typed, an integer on the wire), currency (Millix only),
 * duration (Monthly; Weekly and Yearly shown as unavailable) and a message area. The form checks
 * the input with the server's own schema first; the server's refusals come back beside their
 * fields and in the message area. Editing: Update is enabled only after a change and disabled
 * again once submitted.
 */
import { PLAN_DESCRIPTION_LENGTH_MAX, PLAN_DURATIONS, PLAN_NAME_LENGTH_MAX } from '@quern/core/plans';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppErrorView } from '../../app/appError.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { formErrorsFromServer } from '../../ui/formErrors.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';
import { AmountField } from '../../ui/AmountField.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useErrorText } from './planFormat.js';
import { type PlanDraft, type PlanField, type PlanTerms, planFields, sameDraft, validatePlan } from './planValidation.js';

/** What a submit came to: the server's message, or its refusal. */
export type PlanSubmitResult = { ok: true; message: string; extra?: ReactNode } | { ok: false; view: AppErrorView };

interface PlanFormProps {
  mode: 'create' | 'edit';
  initial: PlanDraft;
  onSubmit(terms: PlanTerms): Promise<PlanSubmitResult>;
}

type Outcome = { kind: 'success'; message: string; extra?: ReactNode } | { kind: 'error'; message: string } | null;

const MESSAGE_ID = 'plan-form-message';

function SelectField({
  id,
  label,
  hint,
  value,
  onChange,
  errorText,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  value: string;
  onChange(value: string): void;
  errorText: string | null;
  children: ReactNode;
}) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, errorText ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <select
        id={id}
        name={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={errorText ? true : undefined}
        aria-describedby={described || undefined}
      >
        {children}
      </select>
      {errorText ? (
        <p className="field-error" id={errorId}>
          {errorText}
        </p>
      ) : null}
    </div>
  );
}

export function PlanForm({ mode, initial, onSubmit }: PlanFormProps) {
  const { t } = useTranslation('plans');
  const language = useLanguage();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const [draft, setDraft] = useState<PlanDraft>(initial);
  // Edit: the values last loaded or submitted; Update waits for a change from them.
  const [baseline, setBaseline] = useState<PlanDraft>(initial);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const { isSubmitting, errors, setErrors, run } = useSubmission<PlanField>();
  const formRef = useRef<HTMLFormElement>(null);

  const edit = (field: keyof PlanDraft, errorField: PlanField) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors.fields[errorField] !== undefined) {
      const { [errorField]: _edited, ...others } = errors.fields;
      setErrors({ form: errors.form, fields: others });
    }
  };

  const focusFirstInvalid = (fields: Partial<Record<PlanField, string | null>>) => {
    const first = planFields.find((field) => fields[field] !== undefined);
    if (first) formRef.current?.querySelector<HTMLElement>(`#plan-${first}`)?.focus();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setOutcome(null);
    const checked = validatePlan(draft);
    if (!checked.ok) {
      setErrors({ form: null, fields: checked.fields });
      focusFirstInvalid(checked.fields);
      return;
    }
    // Disabled again after a submit: the next Update needs a new change.
    setBaseline(draft);
    void run(async () => {
      const result = await onSubmit(checked.terms);
      if (result.ok) {
        setOutcome({ kind: 'success', message: result.message, extra: result.extra });
        // A created plan is saved: the form is ready for the next one.
        if (mode === 'create') setDraft(initial);
        return null;
      }
      setOutcome({ kind: 'error', message: errorText(result.view) });
      const refused = formErrorsFromServer(result.view, planFields);
      focusFirstInvalid(refused.fields);
      return { form: null, fields: refused.fields };
    });
  };

  const fieldError = (field: PlanField): string | null => {
    const key = errors.fields[field];
    return key ? messageText(key) : null;
  };

  const submitDisabled = isSubmitting || (mode === 'edit' && sameDraft(draft, baseline));
  return (
    <form ref={formRef} className="form plan-form" noValidate onSubmit={submit}>
      <TextField
        id="plan-name"
        label={t('form.name')}
        value={draft.name}
        onValueChange={edit('name', 'name')}
        maxLength={PLAN_NAME_LENGTH_MAX}
        autoComplete="off"
        errorText={fieldError('name')}
      />
      <div className="field">
        <label htmlFor="plan-description">{t('form.description')}</label>
        <textarea
          id="plan-description"
          name="plan-description"
          rows={4}
          maxLength={PLAN_DESCRIPTION_LENGTH_MAX}
          value={draft.description}
          onChange={(event) => edit('description', 'description')(event.target.value)}
          aria-invalid={fieldError('description') ? true : undefined}
          aria-describedby={fieldError('description') ? 'plan-description-error' : undefined}
        />
        {fieldError('description') ? (
          <p className="field-error" id="plan-description-error">
            {fieldError('description')}
          </p>
        ) : null}
      </div>
      <AmountField
        id="plan-price"
        label={t('form.price')}
        hint={t('form.priceHint')}
        digits={draft.priceDigits}
        onDigitsChange={edit('priceDigits', 'price')}
        language={language}
        errorText={fieldError('price')}
      />
      <SelectField
        id="plan-currency"
        label={t('form.currency')}
        value={draft.currency}
        onChange={edit('currency', 'currency')}
        errorText={fieldError('currency')}
      >
        <option value="">{t('form.choose')}</option>
        <option value="mlx">{t('currencies.mlx')}</option>
      </SelectField>
      <SelectField
        id="plan-duration"
        label={t('form.duration')}
        hint={t('form.durationHint')}
        value={draft.duration}
        onChange={edit('duration', 'duration')}
        errorText={fieldError('duration')}
      >
        <option value="">{t('form.choose')}</option>
        {PLAN_DURATIONS.map((duration) =>
          duration === 'monthly' ? (
            <option key={duration} value={duration}>
              {t(`durations.${duration}`)}
            </option>
          ) : (
            <option key={duration} value={duration} disabled>
              {t('form.unavailable', { duration: t(`durations.${duration}`) })}
            </option>
          ),
        )}
      </SelectField>
      <div id={MESSAGE_ID} className="plan-form-message">
        {outcome?.kind === 'error' ? <FormAlert kind="error">{outcome.message}</FormAlert> : null}
        {outcome?.kind === 'success' ? (
          <>
            <FormAlert kind="success">{outcome.message}</FormAlert>
            {outcome.extra}
          </>
        ) : null}
      </div>
      <button type="submit" className="button button-primary button-block" disabled={submitDisabled} aria-busy={isSubmitting || undefined}>
        {mode === 'create' ? (isSubmitting ? t('form.creating') : t('form.create')) : isSubmitting ? t('form.updating') : t('form.update')}
      </button>
    </form>
  );
}

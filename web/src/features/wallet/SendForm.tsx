/**
 * The send form (spec, Send): to (a millix address, a username or an e-mail), amount (digits
 * only, grouped as typed), fee (disabled, 1000) and Send. An amount that is not a whole number is
 * refused as it is typed and Send stays disabled; a valid one shows what Send will do. The input
 * is checked with the server's schema before anything is sent; the server's own refusals come
 * back as field messages.
 */
import { SEND_FEE_MLX, formatMlx } from '@quern/core/wallet';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { SubmitButton } from '../../ui/SubmitButton.js';
import { TextField } from '../../ui/TextField.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useSubmission } from '../../ui/useSubmission.js';
import { parseAmountText, type AmountText } from './sendAmount.js';
import { SendAmountField } from './SendAmountField.js';
import { SendSummary } from './SendSummary.js';
import { validateSend, type SendField, type SendRequest } from './sendValidation.js';

export type SendFieldErrors = Partial<Record<SendField, string>>;

interface SendFormProps {
  language: Language;
  /** Resolves to the fields the server refused (empty when none), once the attempt is over. */
  onSubmit(request: SendRequest): Promise<SendFieldErrors>;
  /** Changes when the form should take focus back (after 'Try again'). */
  focusSignal: number;
  /** Values for the placeholders of the server's field messages (amounts in insufficientFunds). */
  messageParams?: Record<string, string | number>;
}

const toFieldErrors = (fields: SendFieldErrors) => ({ form: null, fields });

export function SendForm({ language, onSubmit, focusSignal, messageParams = {} }: SendFormProps) {
  const { t } = useTranslation('wallet');
  const messageText = useMessageText();
  const [to, setTo] = useState('');
  const [amountText, setAmountText] = useState('');
  const { isSubmitting, errors, setErrors, run } = useSubmission<SendField>();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (focusSignal === 0) return;
    const form = formRef.current;
    (form?.querySelector<HTMLInputElement>('input[aria-invalid="true"]') ?? form?.querySelector<HTMLInputElement>('input'))?.focus();
  }, [focusSignal]);

  const amount = parseAmountText(amountText, language);
  const amountMessage = amountMessageOf(amount, language, t);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Send is disabled then; Enter in a field must not get round it.
    if (amountMessage !== null) {
      formRef.current?.querySelector<HTMLInputElement>('#send-amount')?.focus();
      return;
    }
    const checked = validateSend(to, amount.ok ? amount.digits : '');
    if (!checked.ok) {
      setErrors(toFieldErrors(checked.fields));
      // The first field in error takes focus, so its message is read out with it.
      const first = checked.fields.to ? 'send-to' : 'send-amount';
      formRef.current?.querySelector<HTMLInputElement>(`#${first}`)?.focus();
      return;
    }
    void run(async () => {
      const refused = await onSubmit(checked.request);
      return Object.keys(refused).length > 0 ? toFieldErrors(refused) : null;
    });
  };

  // A field's message goes once the person edits that field; the others stay until the next try.
  const edit = (field: SendField, set: (value: string) => void) => (value: string) => {
    set(value);
    if (errors.fields[field] === undefined) return;
    const { [field]: _edited, ...others } = errors.fields;
    setErrors({ form: errors.form, fields: others });
  };

  const errorOf = (field: SendField): string | null => {
    const key = errors.fields[field];
    return key ? messageText({ key, params: messageParams }) : null;
  };
  const feeText = formatMlx(SEND_FEE_MLX, language);
  return (
    <form ref={formRef} className="form send-form" noValidate onSubmit={submit}>
      <TextField
        id="send-to"
        label={t('send.to')}
        hint={t('send.toHint')}
        value={to}
        onValueChange={edit('to', setTo)}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="none"
        maxLength={254}
        errorText={errorOf('to')}
      />
      <SendAmountField
        id="send-amount"
        label={t('send.amount')}
        hint={t('send.amountHint')}
        text={amountText}
        onTextChange={edit('amount', setAmountText)}
        language={language}
        errorText={amountMessage ?? errorOf('amount')}
      />
      <SendSummary to={to} amountDigits={amount.ok ? amount.digits : null} language={language} />
      <TextField
        id="send-fee"
        label={t('send.fee')}
        hint={t('send.feeHint', { fee: feeText })}
        value={feeText}
        onValueChange={() => {}}
        disabled
        errorText={errorOf('fee')}
      />
      <SubmitButton
        isSubmitting={isSubmitting}
        disabled={amountMessage !== null}
        label={t('send.submit')}
        busyLabel={t('send.submitting')}
      />
    </form>
  );
}

/**
 * The amount's own message while what is typed is not an amount; null when it is one, or when
 * the field is empty (the form says "all fields are required" when Send is pressed).
 */
function amountMessageOf(
  amount: AmountText,
  language: Language,
  t: (key: string, params?: Record<string, string>) => string,
): string | null {
  if (amount.ok) return null;
  switch (amount.error) {
    case 'empty':
      return null;
    case 'zero':
      return t('send.amountZero');
    case 'tooLarge':
      return t('errors:amountTooLarge');
    case 'notWhole':
      return t('send.amountWhole', { example: formatMlx(AMOUNT_EXAMPLE_MLX, language) });
  }
}

/** The example in the "whole MLX only" message, grouped as the page's language groups it. */
const AMOUNT_EXAMPLE_MLX = 12_500n;

/**
 * /millix/send (spec, Send): the send form and its dialogs. A send carries an idempotency key,
 * so a retry of the same payment after a lost answer can never move money twice.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { formErrorsFromServer, singleMessageFromServer } from '../../ui/formErrors.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { createIdempotencyKeys } from '../../ui/idempotencyKey.js';
import { SendDialogs, type SendPhase } from './SendDialogs.js';
import { SendForm, type SendFieldErrors } from './SendForm.js';
import { sendFields, type SendRequest } from './sendValidation.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useLogFailure } from '../../ui/useLogFailure.js';
import { displayParams, formatMlxWire } from '../../ui/displayFormat.js';
import './wallet.css';

/**
 * The progress dialog stays up at least this long: a quick answer would otherwise flash it
 * for a frame, which reads as a glitch rather than as "sending".
 */
export const PROGRESS_DIALOG_MIN_MS = 600;

/** Error codes after which the send may or may not have been recorded. */
const OUTCOME_UNKNOWN_CODES: ReadonlySet<string> = new Set(['INTERNAL', 'UNAVAILABLE']);

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function AvailableBalance() {
  const { t } = useTranslation('wallet');
  const trpc = useTRPC();
  const language = useLanguage();
  const balance = useQuery(trpc.wallet.balance.queryOptions());
  useLogFailure('balance', balance.error);
  const amount = balance.data ? formatMlxWire(balance.data.stable, language) : null;
  if (amount === null) return null;
  return <p className="send-available">{t('send.available', { amount })}</p>;
}

export default function SendPage() {
  const { t } = useTranslation('wallet');
  useDocumentTitle(t('send.title'));
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const messageText = useMessageText();
  const language = useLanguage();
  const send = useMutation(trpc.wallet.send.mutationOptions());
  const [state, setState] = useState<SendPhase>({ phase: 'editing' });
  const [focusSignal, setFocusSignal] = useState(0);
  const [messageParams, setMessageParams] = useState<Record<string, string | number>>({});
  const keys = useRef(createIdempotencyKeys());

  const submit = async (request: SendRequest): Promise<SendFieldErrors> => {
    setState({ phase: 'sending' });
    const idempotencyKey = keys.current.keyFor(JSON.stringify(request));
    const shownLongEnough = delay(PROGRESS_DIALOG_MIN_MS);
    try {
      const result = await send.mutateAsync({ ...request, idempotencyKey });
      await shownLongEnough;
      keys.current.settle();
      // The dashboard must show the new pending send the moment it opens.
      void queryClient.invalidateQueries({ queryKey: trpc.wallet.pathKey() });
      if (result.status === 'voided') {
        setState({ phase: 'failed', message: t('send.voided') });
        return {};
      }
      setState({ phase: 'succeeded', amount: formatMlxWire(request.amount, language) ?? request.amount, to: request.to });
      return {};
    } catch (error) {
      await shownLongEnough;
      const view = toAppErrorView(error);
      // A refusal the server explained means nothing was sent: the next attempt is a new payment.
      // No answer, or an unexpected server error, leaves the outcome unknown (the send may have
      // been recorded before the failure): the retry keeps the key, so it can never pay twice.
      if (view.code !== null && !OUTCOME_UNKNOWN_CODES.has(view.code)) keys.current.settle();
      // The field messages the form shows after 'Try again' need the same numbers as the dialog.
      const params = displayParams(view.params, language);
      setMessageParams(params);
      setState({ phase: 'failed', message: messageText({ ...singleMessageFromServer(view), params }) });
      return formErrorsFromServer(view, sendFields).fields as SendFieldErrors;
    }
  };

  return (
    <>
      <section className="card send-card" aria-labelledby="send-title">
        <h1 id="send-title">{t('send.title')}</h1>
        <AvailableBalance />
        <SendForm language={language} onSubmit={submit} focusSignal={focusSignal} messageParams={messageParams} />
      </section>
      {/* Outside the card: its last child loses its bottom margin, which a dialog needs to centre. */}
      <SendDialogs
        state={state}
        onOk={() => void navigate('/account')}
        onGoToAccount={() => void navigate('/account')}
        onTryAgain={() => {
          setState({ phase: 'editing' });
          setFocusSignal((signal) => signal + 1);
        }}
      />
    </>
  );
}

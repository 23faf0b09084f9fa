/**
 * The dashboard's notice while the account's e-mail address is unproven (ADR 046): what it means
 * and a button that mails the link again (the server refuses past its hourly limit with 429 and
 * says so). Nothing shows once the address is proven, or when the question fails.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { useMessageText } from '../../ui/useMessageText.js';
import './identity.css';

export function EmailVerificationNotice() {
  const { t } = useTranslation('identity');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.identity.emailVerification.queryOptions());
  const resend = useMutation(trpc.identity.resendEmailVerification.mutationOptions());
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);

  if (!status.data || status.data.verified) return null;

  const send = async () => {
    setOutcome(null);
    try {
      const answer = await resend.mutateAsync();
      if (answer.verified) await queryClient.invalidateQueries({ queryKey: trpc.identity.emailVerification.queryKey() });
      else setOutcome({ kind: 'success', text: t('verifyNotice.sent') });
    } catch (error) {
      setOutcome({ kind: 'error', text: messageText(singleMessageFromServer(toAppErrorView(error))) });
    }
  };

  return (
    <section className="verify-notice" aria-labelledby="verify-notice-title">
      <h2 id="verify-notice-title">{t('verifyNotice.title')}</h2>
      <p>{t('verifyNotice.body', { email: status.data.email })}</p>
      <button type="button" className="button button-secondary" onClick={() => void send()} disabled={resend.isPending}>
        {resend.isPending ? t('verifyNotice.resending') : t('verifyNotice.resend')}
      </button>
      {outcome ? <FormAlert kind={outcome.kind}>{outcome.text}</FormAlert> : null}
    </section>
  );
}

/**
 * What Send will do, live under the amount: who receives it, the amount, the fixed fee and the
 * total taken from the balance, so a slip shows before the click. The recipient is named as the
 * server resolves it (useRecipientLookup): the Quern username the MLX reach, or a shortened
 * address outside Quern (the spec's rule); an unknown name is warned about, not guessed at.
 */
import { classifyRecipient, formatMlx, SEND_FEE_MLX, shortenIdentifier } from '@quern/core/wallet';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../i18n/languages.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { type RecipientView, useRecipientLookup } from './useRecipientLookup.js';

interface SendSummaryProps {
  to: string;
  /** The amount's bare digits, or null while there is no valid amount. */
  amountDigits: string | null;
  language: Language;
}

export function recipientLabel(to: string): string {
  const read = classifyRecipient(to);
  if (read.ok && read.recipient.kind === 'address') return shortenIdentifier(read.recipient.address);
  return to.trim();
}

function RecipientLine({ to, view }: { to: string; view: RecipientView }) {
  const { t } = useTranslation('wallet');
  const messageText = useMessageText();
  const typed = recipientLabel(to);
  if (view.state === 'user') return <span data-testid="send-recipient">{t('send.summaryUser', { username: view.username })}</span>;
  if (view.state === 'external')
    return <span data-testid="send-recipient">{t('send.summaryExternal', { address: shortenIdentifier(view.address) })}</span>;
  const warning = view.state === 'unknown' ? t('send.summaryUnknown') : view.state === 'refused' ? messageText(view.messageKey) : null;
  return (
    <>
      <span data-testid="send-recipient">{typed}</span>
      {view.state === 'checking' ? <span className="send-recipient-note">{t('send.summaryChecking')}</span> : null}
      {warning === null ? null : (
        <span className="send-recipient-warning" role="note">
          {warning}
        </span>
      )}
    </>
  );
}

export function SendSummary({ to, amountDigits, language }: SendSummaryProps) {
  const { t } = useTranslation('wallet');
  const recipientView = useRecipientLookup(to);
  const amount = amountDigits === null ? null : BigInt(amountDigits);
  const mlx = (value: bigint) => t('send.summaryMlx', { amount: formatMlx(value, language) });
  const recipient = recipientLabel(to);
  return (
    // Polite: read once typing pauses, after the field's own message.
    <div className="send-summary" aria-live="polite">
      {amount === null ? null : (
        <>
          <h2 className="send-summary-title">{t('send.summaryTitle')}</h2>
          <dl>
            {recipient === '' ? null : (
              <div>
                <dt>{t('send.summaryTo')}</dt>
                <dd title={to.trim()}>
                  <RecipientLine to={to} view={recipientView} />
                </dd>
              </div>
            )}
            <div>
              <dt>{t('send.summaryAmount')}</dt>
              <dd>{mlx(amount)}</dd>
            </div>
            <div>
              <dt>{t('send.summaryFee')}</dt>
              <dd>{mlx(SEND_FEE_MLX)}</dd>
            </div>
            <div className="send-summary-total">
              <dt>{t('send.summaryTotal')}</dt>
              <dd>{mlx(amount + SEND_FEE_MLX)}</dd>
            </div>
          </dl>
          {amount < SEND_FEE_MLX ? (
            <p className="send-below-fee" role="note">
              {t('send.belowFee', { fee: formatMlx(SEND_FEE_MLX, language) })}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
}

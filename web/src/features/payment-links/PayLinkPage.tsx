/**
 * /pay/:slug (ADR 084): a merchant's reusable payment link, open to anyone. It shows who is paid,
 * for what and how much (or an amount field when the visitor chooses it), and "Continue to pay"
 * makes a fresh invoice and goes to its page `/i/{id}`. The visit's id is made once per page load,
 * so a double click makes one invoice; a new visit makes another.
 */
import type { PaymentLinkPublicOutput } from '@quern/core/payment-links';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { type AppErrorView, toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import type { Language } from '../../i18n/languages.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { formatAmountWire } from '../../ui/displayFormat.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { linkAmountForServer } from './linkAmount.js';
import './payment-links.css';

/** The server's refusal as its message with its parameters ("at least {{minimum}}"), which a field's key alone would lose. */
const messageOf = (view: AppErrorView) => ({
  key: view.messageKey,
  params: view.params,
  ...(view.message ? { fallback: view.message } : {}),
});

/** 16 random bytes as URL-safe text: this visit's id (one invoice per visit). */
function newVisitId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function boundsHint(
  link: PaymentLinkPublicOutput,
  language: Language,
  t: (key: string, params?: Record<string, string>) => string,
): string | null {
  const shown = (text: string | null) => (text === null ? '' : formatAmountWire(text, link.currency, language));
  const params = { min: shown(link.min_amount), max: shown(link.max_amount), currency: link.currency };
  if (link.min_amount && link.max_amount) return t('amountBetween', params);
  if (link.min_amount) return t('amountAtLeast', params);
  if (link.max_amount) return t('amountAtMost', params);
  return null;
}

function PayForm({ slug, link }: { slug: string; link: PaymentLinkPublicOutput }) {
  const { t } = useTranslation('paymentLinks');
  const trpc = useTRPC();
  const navigate = useNavigate();
  const messageText = useMessageText();
  const language = useLanguage();
  const [visitId] = useState(newVisitId);
  const [amount, setAmount] = useState('');
  const pay = useMutation(trpc.paymentLinks.pay.mutationOptions({ onSuccess: (invoice) => void navigate(`/i/${invoice.invoice_id}`) }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending || pay.isSuccess) return;
    pay.mutate({ slug, visitId, ...(link.amount_type === 'open' ? { amount: linkAmountForServer(amount, link.currency, language) } : {}) });
  };
  const hint = link.amount_type === 'open' ? boundsHint(link, language, t) : null;
  const error = pay.error ? messageText(messageOf(toAppErrorView(pay.error))) : null;
  return (
    <form className="pay-link-form" onSubmit={onSubmit} noValidate>
      {link.amount_type === 'fixed' ? (
        <p className="pay-link-amount" data-testid="pay-link-amount">
          <span>{t('amount')}</span>
          <strong>
            {formatAmountWire(link.amount ?? '', link.currency, language)} {link.currency}
          </strong>
        </p>
      ) : (
        <div className="field">
          <label htmlFor="pay-link-amount">{t('amountField', { currency: link.currency })}</label>
          <input
            id="pay-link-amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            aria-describedby={hint ? 'pay-link-hint' : undefined}
            aria-invalid={error ? true : undefined}
            required
          />
          {hint ? (
            <p id="pay-link-hint" className="field-hint">
              {hint}
            </p>
          ) : null}
        </div>
      )}
      {error ? <FormAlert kind="error">{error}</FormAlert> : null}
      <button type="submit" className="button button-primary" disabled={pay.isPending || pay.isSuccess}>
        {pay.isPending || pay.isSuccess ? t('continuing') : t('continue')}
      </button>
    </form>
  );
}

export default function PayLinkPage() {
  const { t } = useTranslation('paymentLinks');
  const { slug = '' } = useParams();
  const trpc = useTRPC();
  const view = useQuery(trpc.paymentLinks.view.queryOptions({ slug }, { retry: false }));
  const link = view.data;
  useDocumentTitle(link ? t('pageTitle', { merchant: link.merchant.name }) : t('payTo'));
  return (
    <section className="card pay-link" aria-labelledby="pay-link-title">
      {view.isPending ? (
        <LoadingStatus />
      ) : !link ? (
        <>
          <h1 id="pay-link-title">{t('payTo')}</h1>
          <FormAlert kind="error">{t('notFound')}</FormAlert>
        </>
      ) : (
        <>
          <h1 id="pay-link-title">{t('pageTitle', { merchant: link.merchant.name })}</h1>
          <p className="pay-link-merchant">@{link.merchant.username}</p>
          {link.description ? <p className="pay-link-description">{link.description}</p> : null}
          {link.active ? <PayForm slug={slug} link={link} /> : <FormAlert kind="error">{t('inactive')}</FormAlert>}
        </>
      )}
    </section>
  );
}

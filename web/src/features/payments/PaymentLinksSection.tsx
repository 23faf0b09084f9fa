/**
 * The Payments page's "Payment links" section (ADR 084): the merchant creates a link (a fixed
 * amount, or one the visitor chooses within optional bounds, in MLX or USD, with a description),
 * sees its links newest first with their URL and a Copy button, and turns each off and on.
 */
import type { PaymentLinkOutput } from '@quern/core/payment-links';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AppErrorView, toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { CopyButton } from '../../ui/CopyButton.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import type { Language } from '../../i18n/languages.js';
import { formatAmountWire } from '../../ui/displayFormat.js';
import { createIdempotencyKeys } from '../../ui/idempotencyKey.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { linkAmountForServer } from '../payment-links/linkAmount.js';
import '../payment-links/payment-links.css';

/** The server's refusal as its message with its parameters ("at least {{minimum}}"), which a field's key alone would lose. */
const messageOf = (view: AppErrorView) => ({
  key: view.messageKey,
  params: view.params,
  ...(view.message ? { fallback: view.message } : {}),
});

/** The links shown: one page of the newest, as many as a merchant usually keeps. */
const LINKS_SHOWN = 100;

function useRefreshLinks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.paymentLinks.list.queryKey() });
}

function CreateLinkForm() {
  const { t } = useTranslation('paymentLinks');
  const trpc = useTRPC();
  const refresh = useRefreshLinks();
  const messageText = useMessageText();
  const language = useLanguage();
  const keys = useRef(createIdempotencyKeys());
  const [kind, setKind] = useState<'fixed' | 'open'>('fixed');
  const [currency, setCurrency] = useState<'MLX' | 'USD'>('MLX');
  const [amount, setAmount] = useState('');
  const [minimum, setMinimum] = useState('');
  const [maximum, setMaximum] = useState('');
  const [description, setDescription] = useState('');
  const [created, setCreated] = useState(false);
  const create = useMutation(
    trpc.paymentLinks.create.mutationOptions({
      onSuccess: async () => {
        keys.current.settle();
        setCreated(true);
        setAmount('');
        setMinimum('');
        setMaximum('');
        setDescription('');
        await refresh();
      },
      onError: () => keys.current.settle(),
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(false);
    const typed = (text: string) => linkAmountForServer(text, currency, language);
    const body = {
      currency,
      ...(kind === 'fixed' ? { amount: typed(amount) } : {}),
      ...(kind === 'open' && minimum.trim() ? { min_amount: typed(minimum) } : {}),
      ...(kind === 'open' && maximum.trim() ? { max_amount: typed(maximum) } : {}),
      ...(description.trim() ? { description: description.trim() } : {}),
    };
    create.mutate({ ...body, idempotencyKey: keys.current.keyFor(JSON.stringify(body)) });
  };
  const error = create.error ? messageText(messageOf(toAppErrorView(create.error))) : null;
  return (
    <form className="form payment-links-form" onSubmit={onSubmit} noValidate>
      <fieldset className="payment-links-kind">
        <legend>{t('section.amountType')}</legend>
        <label className="payment-links-choice">
          <input type="radio" name="payment-link-kind" checked={kind === 'fixed'} onChange={() => setKind('fixed')} /> {t('section.fixed')}
        </label>
        <label className="payment-links-choice">
          <input type="radio" name="payment-link-kind" checked={kind === 'open'} onChange={() => setKind('open')} /> {t('section.open')}
        </label>
      </fieldset>
      <div className="payment-links-row">
        <div className="field payment-links-currency">
          <label htmlFor="payment-link-currency">{t('section.currency')}</label>
          <select id="payment-link-currency" value={currency} onChange={(e) => setCurrency(e.target.value === 'USD' ? 'USD' : 'MLX')}>
            <option value="MLX">MLX</option>
            <option value="USD">USD</option>
          </select>
        </div>
        {kind === 'fixed' ? (
          <div className="field payment-links-amount">
            <label htmlFor="payment-link-amount">{t('section.amount')}</label>
            <input
              id="payment-link-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
            />
          </div>
        ) : (
          <>
            <div className="field payment-links-amount">
              <label htmlFor="payment-link-min">{t('section.minimum')}</label>
              <input
                id="payment-link-min"
                inputMode="decimal"
                autoComplete="off"
                value={minimum}
                onChange={(e) => setMinimum(e.target.value)}
              />
            </div>
            <div className="field payment-links-amount">
              <label htmlFor="payment-link-max">{t('section.maximum')}</label>
              <input
                id="payment-link-max"
                inputMode="decimal"
                autoComplete="off"
                value={maximum}
                onChange={(e) => setMaximum(e.target.value)}
              />
            </div>
          </>
        )}
      </div>
      <div className="field">
        <label htmlFor="payment-link-description">{t('section.description')}</label>
        <input id="payment-link-description" maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
      </div>
      {error ? <FormAlert kind="error">{error}</FormAlert> : null}
      {created ? <FormAlert kind="success">{t('section.created')}</FormAlert> : null}
      <div>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {t('section.create')}
        </button>
      </div>
    </form>
  );
}

function amountOf(link: PaymentLinkOutput, openText: string, language: Language): string {
  return link.amount_type === 'fixed' && link.amount !== null
    ? `${formatAmountWire(link.amount, link.currency, language)} ${link.currency}`
    : `${openText} (${link.currency})`;
}

function LinkRow({ link }: { link: PaymentLinkOutput }) {
  const { t } = useTranslation('paymentLinks');
  const language = useLanguage();
  const trpc = useTRPC();
  const refresh = useRefreshLinks();
  const options = { onSuccess: () => refresh() };
  const deactivate = useMutation(trpc.paymentLinks.deactivate.mutationOptions(options));
  const activate = useMutation(trpc.paymentLinks.activate.mutationOptions(options));
  const busy = deactivate.isPending || activate.isPending;
  return (
    <li className="payment-links-item" data-testid="payment-link">
      <div className="payment-links-top">
        <strong>{amountOf(link, t('section.openAmount'), language)}</strong>
        <span className={`payments-status payment-links-${link.active ? 'active' : 'inactive'}`}>
          {link.active ? t('section.active') : t('section.inactive')}
        </span>
      </div>
      {link.description ? <div>{link.description}</div> : null}
      <div className="payment-links-url">
        <a href={link.url} data-testid="payment-link-url">
          {link.url}
        </a>
        <CopyButton text={link.url} what={t('section.copyWhat', { description: link.description ?? link.slug })} />
      </div>
      <button
        type="button"
        className="button"
        disabled={busy}
        onClick={() => (link.active ? deactivate.mutate({ id: link.id }) : activate.mutate({ id: link.id }))}
      >
        {link.active ? t('section.turnOff') : t('section.turnOn')}
      </button>
    </li>
  );
}

export function PaymentLinksSection() {
  const { t } = useTranslation('paymentLinks');
  const trpc = useTRPC();
  const links = useQuery(trpc.paymentLinks.list.queryOptions({ limit: LINKS_SHOWN }));
  return (
    <section className="payment-links" aria-labelledby="payment-links-title">
      <h2 id="payment-links-title">{t('section.title')}</h2>
      <p>{t('section.intro')}</p>
      <CreateLinkForm />
      {links.isPending ? (
        <LoadingStatus />
      ) : links.isError ? (
        <FormAlert kind="error">{t('section.loadFailed')}</FormAlert>
      ) : links.data.data.length === 0 ? (
        <p>{t('section.empty')}</p>
      ) : (
        <ul className="payment-links-list">
          {links.data.data.map((link) => (
            <LinkRow key={link.id} link={link} />
          ))}
        </ul>
      )}
    </section>
  );
}

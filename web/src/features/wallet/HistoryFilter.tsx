/**
 * The dashboard's history filter (issue 25): a "Filter" disclosure above the Transactions table
 * with Kind, Counterparty and From/To days, Apply and Clear. The filter lives in the URL query
 * (/account?kind=sent&from=...), so it survives a reload and can be shared; the server applies it
 * (wallet.transactions' `filter`) and checks it again. The form checks with the same schema first
 * and shows each field's own message.
 */
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCalendarDay } from '../../i18n/format.js';
import { kindWords } from './historyWords.js';
import { useLanguage } from '../../ui/useLanguage.js';
import { type HistoryFilter as Filter, type HistoryKind, historyFilterInput, historyKinds } from '@quern/core/history';

export const HISTORY_FILTER_PARAMS = ['kind', 'counterparty', 'from', 'to'] as const;
type FilterField = (typeof HISTORY_FILTER_PARAMS)[number];
type FilterText = Record<FilterField, string>;
const EMPTY: FilterText = { kind: '', counterparty: '', from: '', to: '' };

/** What the URL holds, as the form's text (missing parameters are empty). */
export function filterTextOf(params: URLSearchParams): FilterText {
  return {
    kind: params.get('kind') ?? '',
    counterparty: params.get('counterparty') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
}

export type ParsedFilter = { ok: true; filter: Filter | undefined } | { ok: false; errors: Partial<Record<FilterField, string>> };

/** The form's text as the server's filter: empty fields are left out; nothing given is no filter. */
export function parseFilterText(text: FilterText): ParsedFilter {
  const given = Object.fromEntries(
    HISTORY_FILTER_PARAMS.flatMap((field) => {
      const value = field === 'counterparty' ? text[field].trim() : text[field];
      return value === '' ? [] : [[field, value]];
    }),
  );
  if (Object.keys(given).length === 0) return { ok: true, filter: undefined };
  const parsed = historyFilterInput.safeParse(given);
  if (parsed.success) return { ok: true, filter: parsed.data };
  const errors: Partial<Record<FilterField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as FilterField;
    errors[field] ??= issue.message.startsWith('errors:') ? issue.message : 'errors:invalidRequest';
  }
  return { ok: false, errors };
}

interface HistoryFilterProps {
  /** The filter as the URL holds it. */
  value: FilterText;
  /** Field → message key, for a filter in the URL that does not parse. */
  urlErrors: Partial<Record<FilterField, string>>;
  onApply: (text: FilterText) => void;
}

function DayField(props: { id: string; label: string; value: string; error?: string | undefined; onChange: (day: string) => void }) {
  const { t } = useTranslation(['wallet', 'errors']);
  const language = useLanguage();
  const shown = formatCalendarDay(props.value, language);
  const shownId = `${props.id}-shown`;
  const errorId = `${props.id}-error`;
  return (
    <div className="field history-filter-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="date"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? `${shownId} ${errorId}` : shownId}
      />
      <span className="history-filter-day" id={shownId} data-testid={shownId}>
        {shown ?? ''}
      </span>
      {props.error ? (
        <span className="field-error" id={errorId} role="alert">
          {t(props.error)}
        </span>
      ) : null}
    </div>
  );
}

export function HistoryFilter({ value, urlErrors, onApply }: HistoryFilterProps) {
  const { t } = useTranslation(['wallet', 'errors']);
  const id = useId();
  const active = HISTORY_FILTER_PARAMS.some((field) => value[field] !== '');
  const [open, setOpen] = useState(active);
  const [text, setText] = useState<FilterText>(value);
  const [errors, setErrors] = useState<Partial<Record<FilterField, string>>>(urlErrors);
  // The URL is the truth: Back/Forward or a shared link replace what the form shows.
  const key = JSON.stringify(value);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `value` and `urlErrors`, which are new objects every render.
  useEffect(() => {
    setText(value);
    setErrors(urlErrors);
  }, [key]);

  const set = (field: FilterField) => (next: string) => setText((current) => ({ ...current, [field]: next }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseFilterText(text);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    onApply({ ...text, counterparty: text.counterparty.trim() });
  };
  const clear = () => {
    setText(EMPTY);
    setErrors({});
    onApply(EMPTY);
  };
  const errorOf = (field: FilterField) => errors[field];

  return (
    <details className="history-filter" open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{active ? t('history.filter.titleActive') : t('history.filter.title')}</summary>
      <form className="history-filter-form" onSubmit={submit} noValidate>
        <div className="field history-filter-field">
          <label htmlFor={`${id}-kind`}>{t('history.filter.kind')}</label>
          <select
            id={`${id}-kind`}
            value={text.kind}
            onChange={(e) => set('kind')(e.target.value)}
            aria-invalid={errorOf('kind') ? true : undefined}
            aria-describedby={errorOf('kind') ? `${id}-kind-error` : undefined}
          >
            <option value="">{t('history.filter.anyKind')}</option>
            {historyKinds.map((kind: HistoryKind) => (
              <option key={kind} value={kind}>
                {kindWords(kind, t)}
              </option>
            ))}
          </select>
          {errorOf('kind') ? (
            <span className="field-error" id={`${id}-kind-error`} role="alert">
              {t(errorOf('kind') as string)}
            </span>
          ) : null}
        </div>
        <div className="field history-filter-field">
          <label htmlFor={`${id}-counterparty`}>{t('history.filter.counterparty')}</label>
          <input
            id={`${id}-counterparty`}
            type="text"
            value={text.counterparty}
            onChange={(e) => set('counterparty')(e.target.value)}
            placeholder={t('history.filter.counterpartyHint')}
            autoComplete="off"
            spellCheck={false}
            maxLength={128}
            aria-invalid={errorOf('counterparty') ? true : undefined}
            aria-describedby={errorOf('counterparty') ? `${id}-counterparty-error` : undefined}
          />
          {errorOf('counterparty') ? (
            <span className="field-error" id={`${id}-counterparty-error`} role="alert">
              {t(errorOf('counterparty') as string)}
            </span>
          ) : null}
        </div>
        <DayField id={`${id}-from`} label={t('history.filter.from')} value={text.from} error={errorOf('from')} onChange={set('from')} />
        <DayField id={`${id}-to`} label={t('history.filter.to')} value={text.to} error={errorOf('to')} onChange={set('to')} />
        <div className="history-filter-actions">
          <button type="submit" className="button button-primary">
            {t('history.filter.apply')}
          </button>
          <button type="button" className="button" onClick={clear}>
            {t('history.filter.clear')}
          </button>
        </div>
      </form>
    </details>
  );
}

/**
 * The form that adds a webhook endpoint: its URL and the event types (none ticked means all).
 * The answer carries the signing secret, which the parent shows this once.
 */
import { useMutation } from '@tanstack/react-query';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpointCreatedOutput } from '@quern/core/webhooks';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../../app/appError.js';
import { useTRPC } from '../../../app/data/trpc.js';
import { FormAlert } from '../../../ui/FormAlert.js';
import { useReauthentication } from '../ReauthenticateDialog.js';
import { eventNameKey } from './eventName.js';

export function EndpointForm({ onCreated }: { onCreated: (created: WebhookEndpointCreatedOutput) => void }) {
  const { t } = useTranslation(['webhooks', 'errors']);
  const trpc = useTRPC();
  const create = useMutation(trpc.webhooks.create.mutationOptions());
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Adding an endpoint needs the password given within the last 10 minutes (ADR 045).
  const { withReauthentication, dialog: reauthenticationDialog } = useReauthentication();
  const urlId = useId();
  const hintId = useId();

  const toggle = (type: string) =>
    setEvents((current) => (current.includes(type) ? current.filter((e) => e !== type) : [...current, type]));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await withReauthentication(() =>
        create.mutateAsync({
          url,
          ...(events.length > 0 ? { events: events as (typeof WEBHOOK_EVENT_TYPES)[number][] } : {}),
        }),
      );
      if (!created) return;
      setUrl('');
      setEvents([]);
      onCreated(created);
    } catch (failure) {
      const view = toAppErrorView(failure);
      const key = Object.values(view.fields)[0] ?? view.messageKey;
      setError(t(key, { ns: 'errors', defaultValue: view.message || t('errors:internal') }));
    }
  };

  // The dialog has a form of its own, so it sits beside this one, never inside it.
  return (
    <>
      {reauthenticationDialog}
      <form className="webhook-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="field">
          <label htmlFor={urlId}>{t('url')}</label>
          <input
            id={urlId}
            type="url"
            inputMode="url"
            required
            maxLength={2048}
            value={url}
            aria-describedby={hintId}
            aria-invalid={error ? true : undefined}
            placeholder="https://shop.example/webhooks/quern"
            onChange={(e) => setUrl(e.target.value)}
          />
          <p id={hintId} className="field-hint">
            {t('urlHint')}
          </p>
        </div>
        <fieldset className="webhook-events">
          <legend>{t('events')}</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="webhook-event">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} />
              {t(eventNameKey(type))} <code>{type}</code>
            </label>
          ))}
          <p className="field-hint">{t('eventsHint')}</p>
        </fieldset>
        {error ? <FormAlert kind="error">{error}</FormAlert> : null}
        <button type="submit" className="button button-primary" disabled={create.isPending || url.trim() === ''}>
          {create.isPending ? t('adding') : t('add')}
        </button>
      </form>
    </>
  );
}

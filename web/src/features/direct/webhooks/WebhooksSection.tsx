/**
 * The API Direct page's Webhooks section (ADR 035): the merchant's endpoints (URL, events,
 * created), the add form, the new endpoint's signing secret shown once with a copy button, a
 * delete that asks for confirmation in place, and each endpoint's delivery log on demand.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointCreatedOutput, WebhookEndpointOutput } from '@quern/core/webhooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../../app/data/trpc.js';
import { FormAlert } from '../../../ui/FormAlert.js';
import { LoadingStatus } from '../../../ui/LoadingStatus.js';
import { CopyKey } from '../CopyKey.js';
import { DeliveryLog } from './DeliveryLog.js';
import { EndpointForm } from './EndpointForm.js';
import { eventNameKey } from './eventName.js';

function SecretOnce({ created, onDone }: { created: WebhookEndpointCreatedOutput; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  return (
    <section className="webhook-secret" aria-labelledby="webhook-secret-title">
      <h3 id="webhook-secret-title">{t('secretTitle')}</h3>
      <p className="direct-warning" role="note">
        {t('secretOnce')}
      </p>
      <div className="direct-key-row">
        <code data-testid="webhook-secret">{created.secret}</code>
        <CopyKey apiKey={created.secret} namespace="webhooks" />
      </div>
      <button type="button" className="button" onClick={onDone}>
        {t('done')}
      </button>
    </section>
  );
}

function EndpointItem({ endpoint, onDeleted }: { endpoint: WebhookEndpointOutput; onDeleted: () => Promise<void> }) {
  const { t, i18n } = useTranslation('webhooks');
  const trpc = useTRPC();
  const remove = useMutation(trpc.webhooks.remove.mutationOptions());
  const [confirming, setConfirming] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [failed, setFailed] = useState(false);
  const created = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(endpoint.created_at));

  const onDelete = async () => {
    setFailed(false);
    try {
      await remove.mutateAsync({ id: endpoint.id });
    } catch {
      setFailed(true);
    }
    setConfirming(false);
    await onDeleted();
  };

  return (
    <li className="webhook-endpoint" data-testid="webhook-endpoint">
      <div className="webhook-endpoint-head">
        <code className="webhook-url">{endpoint.url}</code>
        <span className="webhook-meta">
          {endpoint.events.length === 0 ? t('allEvents') : endpoint.events.map((e) => t(eventNameKey(e))).join(', ')}
          {' · '}
          {t('created')} {created}
        </span>
      </div>
      {failed ? <FormAlert kind="error">{t('deleteFailed')}</FormAlert> : null}
      {confirming ? (
        <fieldset className="webhook-confirm">
          <legend>{t('deleteConfirm')}</legend>
          <button type="button" className="button button-primary" disabled={remove.isPending} onClick={() => void onDelete()}>
            {t('confirmDelete')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('cancel')}
          </button>
        </fieldset>
      ) : (
        <div className="direct-actions">
          <button type="button" className="button" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
            {showLog ? t('hideLog') : t('showLog')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(true)}>
            {t('delete')}
          </button>
        </div>
      )}
      {showLog ? <DeliveryLog endpointId={endpoint.id} url={endpoint.url} /> : null}
    </li>
  );
}

export function WebhooksSection() {
  const { t } = useTranslation('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [created, setCreated] = useState<WebhookEndpointCreatedOutput | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });

  return (
    <section className="card direct-card webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t('title')}</h2>
      <p>{t('intro')}</p>
      {created ? <SecretOnce created={created} onDone={() => setCreated(null)} /> : null}
      {endpoints.isPending ? (
        <LoadingStatus />
      ) : endpoints.isError ? (
        // Saying "none" when the list could not be read would invite a second endpoint for the same URL.
        <FormAlert kind="error">{t('loadFailed')}</FormAlert>
      ) : (endpoints.data?.data.length ?? 0) === 0 ? (
        <p className="direct-empty">{t('empty')}</p>
      ) : (
        <ul className="webhook-endpoints">
          {endpoints.data?.data.map((endpoint) => (
            <EndpointItem key={endpoint.id} endpoint={endpoint} onDeleted={refresh} />
          ))}
        </ul>
      )}
      <EndpointForm
        onCreated={(answer) => {
          setCreated(answer);
          void refresh();
        }}
      />
    </section>
  );
}

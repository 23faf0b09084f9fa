/**
 * The API Direct page's Webhooks section (ADR 035): the merchant's endpoints (URL, events,
 * created), the add form, the new endpoint's signing secret shown once with a copy button, a
 * delete and a secret rotation (ADR 056) that each ask for confirmation in place, the rotated
 * secret shown once like a new one, each endpoint's delivery log on demand, and 'Send test event'
 * (issue 25, ADR 060), which sends a signed test.ping through the real delivery path and opens the
 * log, where its delivery and your server's answer show up.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpointCreatedOutput, WebhookEndpointOutput } from '@quern/core/webhooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../../app/appError.js';
import { useTRPC } from '../../../app/data/trpc.js';
import { formatDateTime, pageLanguage } from '../../../i18n/format.js';
import { FormAlert } from '../../../ui/FormAlert.js';
import { LoadingStatus } from '../../../ui/LoadingStatus.js';
import { CopyKey } from '../../../ui/CopyKey.js';
import { useReauthentication } from '../ReauthenticateDialog.js';
import { DeliveryLog } from './DeliveryLog.js';
import { EndpointForm } from './EndpointForm.js';
import { eventNameKey } from './eventName.js';

/** A secret answered once: a new endpoint's, or a rotated one's (which says the old one signs for a day more). */
interface ShownSecret {
  answer: WebhookEndpointCreatedOutput;
  rotated: boolean;
}

function SecretOnce({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const { t } = useTranslation('webhooks');
  const created = shown.answer;
  return (
    <section className="webhook-secret" aria-labelledby="webhook-secret-title">
      <h3 id="webhook-secret-title">{shown.rotated ? t('rotatedTitle') : t('secretTitle')}</h3>
      {shown.rotated ? <code className="webhook-url">{created.url}</code> : null}
      <p className="direct-warning" role="note">
        {shown.rotated ? t('rotatedOnce') : t('secretOnce')}
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

interface EndpointItemProps {
  endpoint: WebhookEndpointOutput;
  onDeleted: () => Promise<void>;
  onRotated: (answer: WebhookEndpointCreatedOutput) => void;
}

type TestResult = { kind: 'success' | 'error'; message: string } | null;

/** Sends a test event to the endpoint; the answer (or the refusal, e.g. the per-minute limit) shows in `onResult`. */
function useSendTest(endpoint: WebhookEndpointOutput, onSent: (deliveryId: string | null) => Promise<unknown>) {
  const { t } = useTranslation(['webhooks', 'errors']);
  const trpc = useTRPC();
  const send = useMutation(trpc.webhooks.sendTest.mutationOptions());
  const [result, setResult] = useState<TestResult>(null);
  const run = async () => {
    setResult(null);
    let deliveryId: string | null = null;
    try {
      deliveryId = (await send.mutateAsync({ id: endpoint.id })).id;
      setResult({ kind: 'success', message: t('testSent', { url: endpoint.url }) });
    } catch (failure) {
      const view = toAppErrorView(failure);
      const seconds = Number(view.params?.retryAfterSeconds ?? 60);
      setResult({ kind: 'error', message: view.code === 'RATE_LIMITED' ? t('testRateLimited', { seconds }) : t('testFailed') });
    }
    await onSent(deliveryId);
  };
  return { run, pending: send.isPending, result };
}

function EndpointItem({ endpoint, onDeleted, onRotated }: EndpointItemProps) {
  const { t } = useTranslation(['webhooks', 'errors']);
  const trpc = useTRPC();
  const remove = useMutation(trpc.webhooks.remove.mutationOptions());
  const rotate = useMutation(trpc.webhooks.rotateSecret.mutationOptions());
  // A new secret lets its holder sign as Quern: the password given within the last 10 minutes (ADR 045).
  const { withReauthentication, dialog: reauthenticationDialog } = useReauthentication();
  const [confirming, setConfirming] = useState<'delete' | 'rotate' | null>(null);
  const [showLog, setShowLog] = useState(false);
  const [failed, setFailed] = useState(false);
  const [rotateError, setRotateError] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const [awaiting, setAwaiting] = useState<string | null>(null);
  const test = useSendTest(endpoint, async (deliveryId) => {
    setAwaiting(deliveryId);
    setShowLog(true);
    await queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  });
  const created = formatDateTime(endpoint.created_at, pageLanguage());

  const onDelete = async () => {
    setFailed(false);
    try {
      await remove.mutateAsync({ id: endpoint.id });
    } catch {
      setFailed(true);
    }
    setConfirming(null);
    await onDeleted();
  };

  const onRotate = async () => {
    setRotateError(null);
    try {
      const answer = await withReauthentication(() => rotate.mutateAsync({ id: endpoint.id }));
      setConfirming(null);
      if (answer) onRotated(answer);
    } catch (failure) {
      const view = toAppErrorView(failure);
      // The server's parameters fill the message; its own text stands in for a key this app lacks.
      setRotateError(t(view.messageKey, { ns: 'errors', ...view.params, defaultValue: view.message || t('rotateFailed') }));
      setConfirming(null);
    }
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
      {reauthenticationDialog}
      {failed ? <FormAlert kind="error">{t('deleteFailed')}</FormAlert> : null}
      {rotateError ? <FormAlert kind="error">{rotateError}</FormAlert> : null}
      {test.result ? <FormAlert kind={test.result.kind}>{test.result.message}</FormAlert> : null}
      {confirming === 'delete' ? (
        <fieldset className="webhook-confirm">
          <legend>{t('deleteConfirm')}</legend>
          <button type="button" className="button button-primary" disabled={remove.isPending} onClick={() => void onDelete()}>
            {t('confirmDelete')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(null)}>
            {t('cancel')}
          </button>
        </fieldset>
      ) : confirming === 'rotate' ? (
        <fieldset className="webhook-confirm">
          <legend>{t('rotateConfirm')}</legend>
          <button type="button" className="button button-primary" disabled={rotate.isPending} onClick={() => void onRotate()}>
            {rotate.isPending ? t('rotating') : t('confirmRotate')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(null)}>
            {t('cancel')}
          </button>
        </fieldset>
      ) : (
        <div className="direct-actions">
          <button type="button" className="button" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
            {showLog ? t('hideLog') : t('showLog')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="webhook-send-test"
            aria-label={t('sendTestLabel', { url: endpoint.url })}
            disabled={test.pending}
            aria-busy={test.pending || undefined}
            onClick={() => void test.run()}
          >
            {test.pending ? t('sendingTest') : t('sendTest')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming('rotate')}>
            {t('rotate')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming('delete')}>
            {t('delete')}
          </button>
        </div>
      )}
      {showLog ? <DeliveryLog endpointId={endpoint.id} url={endpoint.url} awaiting={awaiting} /> : null}
    </li>
  );
}

export function WebhooksSection() {
  const { t } = useTranslation('webhooks');
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.list.queryOptions());
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });

  return (
    <section className="card direct-card webhooks" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">{t('title')}</h2>
      <p>{t('intro')}</p>
      {shown ? <SecretOnce shown={shown} onDone={() => setShown(null)} /> : null}
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
            <EndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              onDeleted={refresh}
              onRotated={(answer) => setShown({ answer, rotated: true })}
            />
          ))}
        </ul>
      )}
      <EndpointForm
        onCreated={(answer) => {
          setShown({ answer, rotated: false });
          void refresh();
        }}
      />
    </section>
  );
}

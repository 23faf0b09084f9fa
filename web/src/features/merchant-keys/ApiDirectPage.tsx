/**
 * /api-direct (spec section 2, API Direct): the merchant's API key, or 'No key available. Please
 * generate one.' in a 'No data' card; Generate and Delete; the warning that a new key invalidates
 * the previous one. The full key is in the answer to Generate only, so the page shows it once,
 * with a copy button; after a reload key-get answers it masked (ADR 030). Below it, the merchant's
 * webhook endpoints and their delivery logs (ADR 035).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { CopyKey } from '../../ui/CopyKey.js';
import { type KeyAction, KeyConfirmDialog } from './KeyConfirmDialog.js';
import { useReauthentication } from './ReauthenticateDialog.js';
import { WebhooksSection } from './webhooks/WebhooksSection.js';
import './direct.css';

type Failure = 'generateFailed' | 'deleteFailed' | null;

function KeyView({ masked, fresh }: { masked: string | null; fresh: string | null }) {
  const { t } = useTranslation('direct');
  const shown = fresh ?? masked;
  if (!shown)
    return (
      <div className="direct-empty" data-testid="direct-no-data">
        <h2>{t('noData')}</h2>
        <p>{t('noKey')}</p>
      </div>
    );
  return (
    <div className="direct-key">
      <h2 id="direct-key-label">{t('keyLabel')}</h2>
      <div className="direct-key-row">
        <code data-testid="direct-key">{shown}</code>
        {fresh ? <CopyKey apiKey={fresh} /> : null}
      </div>
      {fresh ? <p className="direct-shown-once">{t('shownOnce')}</p> : null}
    </div>
  );
}

export default function ApiDirectPage() {
  const { t } = useTranslation('direct');
  const { t: tPayments } = useTranslation('payments');
  useDocumentTitle(t('title'));
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const key = useQuery(trpc.direct.keyGet.queryOptions());
  const generate = useMutation(trpc.direct.keyGenerate.mutationOptions());
  const remove = useMutation(trpc.direct.keyDelete.mutationOptions());
  const [fresh, setFresh] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure>(null);
  const [confirming, setConfirming] = useState<KeyAction | null>(null);
  // Generate and Delete need the password given within the last 10 minutes (ADR 045).
  const { withReauthentication, dialog: reauthenticationDialog } = useReauthentication();
  const busy = generate.isPending || remove.isPending;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.direct.keyGet.queryKey() });

  const onGenerate = async () => {
    setFailure(null);
    try {
      const result = await withReauthentication(() => generate.mutateAsync());
      if (result) setFresh(result.content.api_key);
    } catch {
      setFailure('generateFailed');
    }
    await refresh();
  };

  const onDelete = async () => {
    setFailure(null);
    try {
      const removed = await withReauthentication(() => remove.mutateAsync());
      if (removed) setFresh(null);
    } catch {
      setFailure('deleteFailed');
    }
    await refresh();
  };

  const masked = key.data?.content.api_key ?? null;
  const hasKey = masked !== null || fresh !== null;
  // Replacing or deleting a key in use cuts off its integrations, so both ask first; a first key
  // replaces nothing and is generated at once. The password step (ADR 045) follows the answer.
  const onConfirmed = (action: KeyAction) => {
    setConfirming(null);
    void (action === 'generate' ? onGenerate() : onDelete());
  };
  return (
    <>
      <section className="card direct-card" aria-labelledby="direct-title">
        <h1 id="direct-title">{t('title')}</h1>
        <p>{t('intro')}</p>
        <p>
          <Link to="/developers">{t('developersLink')}</Link>
        </p>
        <p>
          <Link to="/payments">{tPayments('apiDirectLink')}</Link>
        </p>
        {key.isPending ? <LoadingStatus /> : <KeyView masked={masked} fresh={fresh} />}
        <p className="direct-warning" role="note">
          {t('warning')}
        </p>
        {failure ? <FormAlert kind="error">{t(failure)}</FormAlert> : null}
        <div className="direct-actions">
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            onClick={() => (hasKey ? setConfirming('generate') : void onGenerate())}
          >
            {generate.isPending ? t('generating') : t('generate')}
          </button>
          <button type="button" className="button" disabled={busy || !hasKey} onClick={() => setConfirming('delete')}>
            {remove.isPending ? t('deleting') : t('delete')}
          </button>
        </div>
      </section>
      <KeyConfirmDialog action={confirming} onConfirm={onConfirmed} onCancel={() => setConfirming(null)} />
      {reauthenticationDialog}
      <WebhooksSection />
    </>
  );
}

/**
 * /logout: ends the session on the server, forgets cached user data, clears the session state and
 * goes to /. The session cookie is httpOnly, so only the server can end it: when the call fails
 * the user stays signed in and can try again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';

export function LogoutPage() {
  const { t } = useTranslation('identity');
  useDocumentTitle(t('logout.title'));
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const logout = useMutation(trpc.identity.logout.mutationOptions());
  const { mutateAsync } = logout;
  const [failed, setFailed] = useState(false);

  // Awaits the call instead of passing callbacks to `mutate`: while it runs, a query of the page
  // that meets the ended session signs out, which empties the data cache and its mutations, and a
  // per-call callback of a mutation removed that way never runs (the page stayed on 'Loading...').
  const signOutEverywhere = useCallback(async () => {
    setFailed(false);
    try {
      await mutateAsync();
    } catch {
      setFailed(true);
      return;
    }
    queryClient.clear();
    signOut();
    void navigate('/', { replace: true });
  }, [mutateAsync, queryClient, signOut, navigate]);

  // StrictMode runs effects twice in development; one logout call is enough.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void signOutEverywhere();
  }, [signOutEverywhere]);

  if (!failed) return <LoadingStatus />;
  return (
    <section className="card card-narrow" aria-labelledby="logout-title">
      <h1 id="logout-title">{t('logout.title')}</h1>
      <FormAlert kind="error">{t('logout.failed')}</FormAlert>
      <button type="button" className="button button-primary" onClick={() => void signOutEverywhere()}>
        {t('logout.retry')}
      </button>
    </section>
  );
}

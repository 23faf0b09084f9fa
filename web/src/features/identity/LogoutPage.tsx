/**
 * /logout: ends the session on the server, forgets cached user data, clears the session state and
 * goes to /. The session cookie is httpOnly, so only the server can end it: when the call fails
 * the user stays signed in and can try again.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
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
  const { mutate } = logout;

  const signOutEverywhere = useCallback(() => {
    mutate(undefined, {
      onSuccess: () => {
        queryClient.clear();
        signOut();
        void navigate('/', { replace: true });
      },
    });
  }, [mutate, queryClient, signOut, navigate]);

  // StrictMode runs effects twice in development; one logout call is enough.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    signOutEverywhere();
  }, [signOutEverywhere]);

  if (!logout.isError) return <LoadingStatus />;
  return (
    <section className="card card-narrow" aria-labelledby="logout-title">
      <h1 id="logout-title">{t('logout.title')}</h1>
      <FormAlert kind="error">{t('logout.failed')}</FormAlert>
      <button type="button" className="button button-primary" onClick={signOutEverywhere}>
        {t('logout.retry')}
      </button>
    </section>
  );
}

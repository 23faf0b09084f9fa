/**
 * /account, the post-login destination. For now it greets the signed-in user by username; the
 * spec's dashboard (balance, address, transactions) grows here.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { singleMessageFromServer } from '../../ui/formErrors.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useMessageText } from '../../ui/useMessageText.js';
import { useAuth } from '../auth/AuthProvider.js';
import './wallet.css';

function AccountHeading({ userId }: { userId: string }) {
  const { t } = useTranslation('common');
  const messageText = useMessageText();
  const trpc = useTRPC();
  const user = useQuery(trpc.identity.user.queryOptions({ id: userId }));
  if (user.isPending) return <LoadingStatus />;
  if (user.isError) return <FormAlert kind="error">{messageText(singleMessageFromServer(toAppErrorView(user.error)))}</FormAlert>;
  return (
    <section className="account-hero" aria-labelledby="account-title">
      <h1 id="account-title">{t('account.title')}</h1>
      <p className="account-user">
        <span className="account-user-label">{t('account.signedInAs')}</span>{' '}
        <strong className="account-username">{user.data.username}</strong>
      </p>
    </section>
  );
}

export function AccountPage() {
  const { t } = useTranslation('common');
  useDocumentTitle(t('account.title'));
  const { state } = useAuth();
  // The route guard renders this page only with a session, so a missing id is a wiring defect.
  if (!state.id) throw new Error('AccountPage rendered without a session');
  return <AccountHeading userId={state.id} />;
}

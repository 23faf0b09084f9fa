/**
 * /profile (spec section 2, Profile): the signed-in user's username, and first name, last name,
 * phone and password, each with a view and an edit mode. Each Save is one
 * POST /api/user/update/{id} (tRPC identity.update) with one field. The route guard shows
 * 'Loading...' while the session loads and sends visitors to /login.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { DeleteAccountSection } from './DeleteAccountSection.js';
import { EditableField } from './EditableField.js';
import { PasswordEditor } from './PasswordEditor.js';
import { TwoFactorSection } from './TwoFactorSection.js';
import './profile.css';

export default function ProfilePage() {
  const { t } = useTranslation('profile');
  useDocumentTitle(t('title'));
  const { state } = useAuth();
  const id = state.id ?? '';
  const trpc = useTRPC();
  const user = useQuery({ ...trpc.identity.user.queryOptions({ id }), enabled: id !== '' });
  const update = useMutation(trpc.identity.update.mutationOptions());

  const body = () => {
    if (user.isError) return <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
    if (!user.data) return <LoadingStatus />;
    const { username, first_name, last_name, phone_number } = user.data;
    return (
      <div className="profile-list">
        <div className="profile-row">
          <span className="profile-label">{t('username')}</span>
          <div className="profile-value" data-testid="username-value">
            {username}
          </div>
        </div>
        <EditableField
          id="first_name"
          label={t('firstName')}
          value={first_name}
          autoComplete="given-name"
          onSave={async (value) => (await update.mutateAsync({ id, first_name: value })).first_name}
        />
        <EditableField
          id="last_name"
          label={t('lastName')}
          value={last_name}
          autoComplete="family-name"
          onSave={async (value) => (await update.mutateAsync({ id, last_name: value })).last_name}
        />
        <EditableField
          id="phone_number"
          type="tel"
          label={t('phone')}
          value={phone_number}
          autoComplete="tel"
          onSave={async (value) => (await update.mutateAsync({ id, phone_number: value })).phone_number}
        />
        <PasswordEditor onSave={(password, current_password) => update.mutateAsync({ id, password, current_password })} />
        <TwoFactorSection username={username} />
        <DeleteAccountSection />
      </div>
    );
  };

  return (
    <section className="card profile-card" aria-labelledby="profile-title">
      <h1 id="profile-title">{t('title')}</h1>
      {body()}
    </section>
  );
}

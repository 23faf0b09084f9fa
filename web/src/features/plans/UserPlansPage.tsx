/**
 * /user/{username} (spec section 2): a user's public profile, listing the plans they offer, each
 * with Subscribe. One's own profile shows one's plans without Subscribe (the owner edits them on
 * the plan's page instead). A plan the viewer already subscribes to (any subscription not ended)
 * shows 'Subscribed' and links to that subscription instead of offering Subscribe again (issue 25);
 * the server refuses a second subscription anyway.
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { planPath } from './PlansListPage.js';
import { usePriceText } from './planFormat.js';
import { SubscribeAction } from './SubscribeAction.js';
import './plans.css';

function UserPlans({ userId }: { userId: string }) {
  const { t } = useTranslation('plans');
  const trpc = useTRPC();
  const { state: auth } = useAuth();
  const priceText = usePriceText();
  const plans = useQuery(trpc.plans.ofUser.queryOptions({ user_id: userId }));
  const own = auth.id === userId;
  // The viewer's own subscriptions (first page: up to 1,000, ADR 057), to mark the plans they already have.
  const mine = useQuery({ ...trpc.subscriptions.mine.queryOptions(), enabled: !own && auth.id !== null });
  const subscribed = new Map(
    (mine.data?.content ?? []).filter((s) => s.status !== 'ended' && s.provider_id === userId).map((s) => [s.plan_id, s.id]),
  );
  if (plans.isPending || (mine.isPending && mine.fetchStatus !== 'idle')) return <LoadingStatus />;
  if (plans.isError) return <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  if (plans.data.content.length === 0)
    return (
      <div className="plans-empty" data-testid="user-plans-no-data">
        <h2>{t('user.noData')}</h2>
        <p>{t('user.noPlans')}</p>
      </div>
    );
  return (
    <ul className="plans-cards">
      {plans.data.content.map((plan) => (
        <li key={plan.id} className="plans-item" data-testid="plan">
          <div className="plans-item-top">
            <Link to={planPath(plan.id)} className="plans-name">
              {plan.name}
            </Link>
            <strong>{t('pricePerPeriod', { price: priceText(plan.price), duration: t(`durations.${plan.duration}`) })}</strong>
          </div>
          <p className="plans-description">{plan.description}</p>
          {own ? null : <PlanAction plan={plan} subscriptionId={subscribed.get(plan.id)} />}
        </li>
      ))}
    </ul>
  );
}

function PlanAction({ plan, subscriptionId }: { plan: { id: string; name: string }; subscriptionId: string | undefined }) {
  const { t } = useTranslation('plans');
  if (subscriptionId === undefined) return <SubscribeAction plan={plan} />;
  return (
    <div className="plans-subscribed" data-testid="plan-subscribed">
      <span className="plans-subscribed-badge">{t('subscribedBadge')}</span>
      <Link to={`/subscriptions/${encodeURIComponent(subscriptionId)}`} aria-label={`${t('subscribedLink')}: ${plan.name}`}>
        {t('subscribedLink')}
      </Link>
    </div>
  );
}

export default function UserPlansPage() {
  const { t } = useTranslation('plans');
  const { username = '' } = useParams();
  const trpc = useTRPC();
  const profile = useQuery(trpc.plans.userProfile.queryOptions({ username }));
  const content = profile.data?.content;
  const fullName = content ? [content.first_name, content.last_name].filter(Boolean).join(' ') : '';
  const name = fullName || content?.username || username;
  useDocumentTitle(t('user.title', { name }));

  let body: React.ReactNode;
  if (profile.isPending) body = <LoadingStatus />;
  else if (profile.isError)
    body = <FormAlert kind="error">{toAppErrorView(profile.error).code === 'NOT_FOUND' ? t('user.notFound') : t('loadFailed')}</FormAlert>;
  else body = <UserPlans userId={profile.data.content.id} />;
  return (
    <section className="card plans-card" aria-labelledby="user-plans-title">
      <h1 id="user-plans-title">{t('user.title', { name })}</h1>
      {content && fullName ? <p className="plans-muted">{content.username}</p> : null}
      {body}
    </section>
  );
}

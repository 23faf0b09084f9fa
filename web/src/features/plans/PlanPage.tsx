/**
 * /subscription-plans/{id} (spec section 2): the plan's name, price and currency, description and
 * duration. Its owner (the signed-in user's id is the plan's provider_id, spec section 6) sees
 * Edit, Delete (after a confirmation, through /subscription-plans/{id}/delete) and Subscribers;
 * anyone else sees Subscribe.
 */
import type { PlanOutput } from '@quern/core/plans';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { Modal } from '../../ui/Modal.js';
import { messageFromState, planPath } from './PlansListPage.js';
import { useErrorText, usePriceText } from './planFormat.js';
import { PublicLink } from './PublicLink.js';
import { SubscribeAction } from './SubscribeAction.js';
import './plans.css';

function DeletePlan({ plan }: { plan: PlanOutput }) {
  const { t } = useTranslation('plans');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const bodyId = useId();
  const keepRef = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" className="button" onClick={() => setOpen(true)}>
        {t('detail.delete')}
      </button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        labelledBy={titleId}
        describedBy={bodyId}
        initialFocus={keepRef}
        role="alertdialog"
        className="plans-dialog"
      >
        <h2 id={titleId}>{t('detail.deleteTitle')}</h2>
        <p id={bodyId}>{t('detail.deleteBody', { name: plan.name })}</p>
        <div className="modal-actions">
          <button type="button" className="button" ref={keepRef} onClick={() => setOpen(false)}>
            {t('detail.cancel')}
          </button>
          <button type="button" className="button button-primary" onClick={() => navigate(`${planPath(plan.id)}/delete`)}>
            {t('detail.deleteConfirm')}
          </button>
        </div>
      </Modal>
    </>
  );
}

export function PlanDetails({ plan }: { plan: PlanOutput }) {
  const { t } = useTranslation('plans');
  const priceText = usePriceText();
  return (
    <dl className="plans-details">
      <dt>{t('detail.price')}</dt>
      <dd data-testid="plan-price">{t('priceText', { price: priceText(plan.price) })}</dd>
      <dt>{t('detail.currency')}</dt>
      <dd>{t(`currencies.${plan.currency}`)}</dd>
      <dt>{t('detail.duration')}</dt>
      <dd>{t(`durations.${plan.duration}`)}</dd>
      <dt>{t('detail.description')}</dt>
      <dd className="plans-description">{plan.description}</dd>
    </dl>
  );
}

export default function PlanPage() {
  const { t } = useTranslation('plans');
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const { state: auth } = useAuth();
  const errorText = useErrorText();
  const plan = useQuery(trpc.plans.get.queryOptions({ id }));
  // The create form's answer ('Subscription plan created.'), passed on when it opened this page.
  const message = messageFromState(useLocation().state);
  useDocumentTitle(plan.data?.content.name ?? t('detail.title'));

  if (plan.isPending) return <LoadingStatus />;
  if (plan.isError) {
    const view = toAppErrorView(plan.error);
    return (
      <section className="card plans-card" aria-labelledby="plan-title">
        <h1 id="plan-title">{t('detail.title')}</h1>
        <FormAlert kind="error">{view.code === 'NOT_FOUND' ? errorText(view) : t('loadFailed')}</FormAlert>
        <p>
          <Link to="/subscription-plans/all">{t('detail.backToList')}</Link>
        </p>
      </section>
    );
  }
  const content = plan.data.content;
  const owner = auth.id !== null && auth.id === content.provider_id;
  return (
    <section className="card plans-card" aria-labelledby="plan-title">
      <h1 id="plan-title">{content.name}</h1>
      {message ? <FormAlert kind="success">{message}</FormAlert> : null}
      <PlanDetails plan={content} />
      <div className="plans-actions">
        {owner ? (
          <>
            <Link to={`${planPath(content.id)}/edit`} className="button button-primary">
              {t('detail.edit')}
            </Link>
            <DeletePlan plan={content} />
            <Link to={`${planPath(content.id)}/subscribers`} className="button">
              {t('detail.subscribers')}
            </Link>
          </>
        ) : (
          <SubscribeAction plan={content} />
        )}
      </div>
      {owner ? (
        <>
          <PublicLink />
          <p>
            <Link to="/subscription-plans/all">{t('detail.backToList')}</Link>
          </p>
        </>
      ) : null}
    </section>
  );
}

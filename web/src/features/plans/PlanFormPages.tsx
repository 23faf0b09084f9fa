/**
 * /subscription-plans/create and /subscription-plans/{id}/edit: the plan form, creating a plan or
 * updating one. Both show the server's message (spec section 8); the edit page says 'Data
 * retrieval failed' when the plan cannot be loaded.
 */
import type { PlanOutput } from '@quern/core/plans';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { LoadingStatus } from '../../ui/LoadingStatus.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { useAuth } from '../auth/AuthProvider.js';
import { PlanForm, type PlanSubmitResult } from './PlanForm.js';
import { planPath } from './PlansListPage.js';
import { type PlanDraft, type PlanTerms, emptyDraft } from './planValidation.js';
import './plans.css';

const draftOf = (plan: PlanOutput): PlanDraft => ({
  name: plan.name,
  description: plan.description,
  priceDigits: String(plan.price),
  currency: plan.currency,
  duration: plan.duration,
});

export function CreatePlanPage() {
  const { t } = useTranslation('plans');
  useDocumentTitle(t('form.createTitle'));
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.plans.create.mutationOptions());
  const navigate = useNavigate();

  const onSubmit = async (terms: PlanTerms): Promise<PlanSubmitResult> => {
    try {
      const answer = await create.mutateAsync(terms);
      await queryClient.invalidateQueries({ queryKey: trpc.plans.mine.pathKey() });
      // The new plan's page, not a cleared form that invites creating the same plan twice; the
      // form's place in history is replaced so Back does not return to it either.
      if (answer.id) navigate(planPath(answer.id), { replace: true, state: { message: answer.message } });
      return { ok: true, message: answer.message };
    } catch (failure) {
      return { ok: false, view: toAppErrorView(failure) };
    }
  };

  return (
    <section className="card plans-card" aria-labelledby="plan-form-title">
      <h1 id="plan-form-title">{t('form.createTitle')}</h1>
      <p>
        <Link to="/subscription-plans/all">{t('detail.backToList')}</Link>
      </p>
      <PlanForm mode="create" initial={emptyDraft} onSubmit={onSubmit} />
    </section>
  );
}

export function EditPlanPage() {
  const { t } = useTranslation(['plans', 'errors']);
  const { state: auth } = useAuth();
  useDocumentTitle(t('form.editTitle'));
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plan = useQuery(trpc.plans.get.queryOptions({ id }));
  const update = useMutation(trpc.plans.update.mutationOptions());
  const planPath = `/subscription-plans/${encodeURIComponent(id)}`;

  const onSubmit = async (terms: PlanTerms): Promise<PlanSubmitResult> => {
    try {
      const answer = await update.mutateAsync({ id, ...terms });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: trpc.plans.get.queryKey({ id }) }),
        queryClient.invalidateQueries({ queryKey: trpc.plans.mine.pathKey() }),
      ]);
      return { ok: true, message: answer.message };
    } catch (failure) {
      return { ok: false, view: toAppErrorView(failure) };
    }
  };

  let body: React.ReactNode;
  if (plan.isPending) body = <LoadingStatus />;
  else if (plan.isError) body = <FormAlert kind="error">{t('loadFailed')}</FormAlert>;
  // Only the owner may edit (spec section 6): anyone else is told so instead of a form the server would refuse.
  else if (plan.data.content.provider_id !== auth.id) body = <FormAlert kind="error">{t('errors:planNotOwner')}</FormAlert>;
  else body = <PlanForm key={plan.data.content.id} mode="edit" initial={draftOf(plan.data.content)} onSubmit={onSubmit} />;
  return (
    <section className="card plans-card" aria-labelledby="plan-form-title">
      <h1 id="plan-form-title">{t('form.editTitle')}</h1>
      <p>
        <Link to={planPath}>{t('form.backToPlan')}</Link>
      </p>
      {body}
    </section>
  );
}

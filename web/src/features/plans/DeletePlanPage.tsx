/**
 * /subscription-plans/{id}/delete (spec section 2: no screen): deletes the plan once, then goes
 * back to the list, which shows the server's message; on failure it shows the message and a way
 * back to the plan. The plan page asks for confirmation before coming here.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { toAppErrorView } from '../../app/appError.js';
import { useTRPC } from '../../app/data/trpc.js';
import { FormAlert } from '../../ui/FormAlert.js';
import { useDocumentTitle } from '../../ui/useDocumentTitle.js';
import { planPath } from './PlansListPage.js';
import { useErrorText } from './planFormat.js';
import './plans.css';

export default function DeletePlanPage() {
  const { t } = useTranslation('plans');
  useDocumentTitle(t('detail.delete'));
  const { id = '' } = useParams();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const remove = useMutation(trpc.plans.delete.mutationOptions());
  const [failure, setFailure] = useState<string | null>(null);
  // Once per visit: a development double effect or a re-render must not send a second delete.
  const started = useRef(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once for the plan in the address
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    remove.mutateAsync({ id }).then(
      async (answer) => {
        await queryClient.invalidateQueries({ queryKey: trpc.plans.pathKey() });
        navigate('/subscription-plans/all', { replace: true, state: { message: answer.message } });
      },
      (error: unknown) => setFailure(errorText(toAppErrorView(error))),
    );
  }, [id]);

  return (
    <section className="card plans-card" aria-labelledby="plan-delete-title">
      <h1 id="plan-delete-title">{t('detail.delete')}</h1>
      {failure === null ? (
        <p role="status">{t('delete.deleting')}</p>
      ) : (
        <>
          <FormAlert kind="error">{failure}</FormAlert>
          <p>
            <Link to={planPath(id)}>{t('delete.back')}</Link>
          </p>
        </>
      )}
    </section>
  );
}
